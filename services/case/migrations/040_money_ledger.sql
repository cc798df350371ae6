-- Money ledger (issue 33 part 1, design §15): every case carries its money, in its own currency and in the
-- tenant's reporting currency, and the report rollups sum it, so the dashboard and /reports never read cases.
--
-- Where the money lives: derived columns on the case row, set by a row trigger from the columns they depend
-- on (verdict, amount, currency, post date, cycle, card network, recovered amount) and the tenant's settings
-- (reporting currency and fee schedule, synced from config/tenants by services/case/src/money) and exchange
-- rates. The statement triggers of the rollups (021, 039) then add them up like every other counter.
--
-- The rules (one place: cases.case_money_set below):
--   recovered  verdict Win: recovered_amt when the outcome named one (partial recovery), else the disputed
--              amount; any other verdict: 0.
--   lost       a decided case (Win, Loss, Will Not / Do Not Represent): disputed - recovered; else 0.
--   fees       the tenant's fee for the case's card network and cycle (network + processor fee, every case),
--              plus the loss fee (arbitration, spec 2 §2 'central' warning) when the verdict is Loss. Fees
--              are stated in the reporting currency.
--   rate       the newest rate of the case currency on or before its post date (1 for the reporting
--              currency itself); none: the reporting amounts are null and the rollups count the case
--              as 'unrated' instead of summing it.
--   net        recovered - fees (computed where read).

-- The money part of a tenant's config as last synced (a change reprices the tenant's cases).
create table cases.money_settings (
  tenant_id text primary key references cases.tenants (id),
  reporting_currency_id integer not null references cases.currencies (id),
  config_hash text not null
);

create table cases.money_fees (
  tenant_id text not null references cases.tenants (id),
  card_type_id smallint not null references cases.card_types (id),
  cycle_id smallint not null references cases.cycles (id),
  -- Network + processor dispute fee, charged on every case of this network and cycle.
  case_fee numeric(12, 2) not null check (case_fee >= 0),
  -- Charged when the case is lost (arbitration fee of a second cycle).
  loss_fee numeric(12, 2) not null check (loss_fee >= 0),
  primary key (tenant_id, card_type_id, cycle_id)
);

-- Daily rates to the tenant's reporting currency, loaded by an admin (CSV) or the demo seed.
create table cases.exchange_rates (
  tenant_id text not null references cases.tenants (id),
  currency_id integer not null references cases.currencies (id),
  day date not null,
  rate_to_reporting numeric(18, 8) not null check (rate_to_reporting > 0),
  primary key (tenant_id, currency_id, day)
);

alter table cases.cases
  -- What the outcome recovered when it named an amount (connector outcome, partial recovery); null: the
  -- verdict decides (Win: the disputed amount).
  add column recovered_amt numeric(12, 2) check (recovered_amt >= 0),
  add column money_rate numeric(18, 8),
  add column money_recovered numeric(12, 2) not null default 0,
  add column money_lost numeric(12, 2) not null default 0,
  -- Fees in the case currency (null without a rate).
  add column money_fees numeric(12, 2),
  add column rep_disputed numeric(12, 2),
  add column rep_recovered numeric(12, 2),
  add column rep_lost numeric(12, 2),
  add column rep_fees numeric(12, 2) not null default 0;

-- The rate of a currency on a day for a tenant (the reporting currency itself: 1).
create function cases.money_rate_of(tenant text, currency integer, on_day date) returns numeric
language sql stable as $$
  select case
    when currency = coalesce((select reporting_currency_id from cases.money_settings where tenant_id = tenant), 1)
      then 1::numeric
    else (select r.rate_to_reporting from cases.exchange_rates r
          where r.tenant_id = tenant and r.currency_id = currency and r.day <= on_day
          order by r.day desc limit 1)
  end
$$;

create function cases.case_money_set() returns trigger language plpgsql as $$
declare
  fee numeric;
begin
  new.money_rate := cases.money_rate_of(new.tenant_id, new.dispute_currency_id, new.date_post);
  new.money_recovered := case when new.verdict_id = 4
    then least(coalesce(new.recovered_amt, new.dispute_amt), new.dispute_amt) else 0 end;
  new.money_lost := case when new.verdict_id in (1, 2, 4, 5) then new.dispute_amt - new.money_recovered else 0 end;
  select coalesce(sum(f.case_fee + case when new.verdict_id = 5 then f.loss_fee else 0 end), 0) into fee
    from cases.money_fees f
   where f.tenant_id = new.tenant_id and f.card_type_id = new.card_type_id and f.cycle_id = new.cycle_id;
  new.rep_fees := fee;
  new.money_fees := round(fee / new.money_rate, 2);
  new.rep_disputed := round(new.dispute_amt * new.money_rate, 2);
  new.rep_recovered := round(new.money_recovered * new.money_rate, 2);
  new.rep_lost := round(new.money_lost * new.money_rate, 2);
  return new;
end $$;

-- An update naming money_rate (rate uploads, settings changes) recomputes the money from the current rates.
create trigger case_money before insert or update of tenant_id, dispute_amt, dispute_currency_id, date_post,
  cycle_id, card_type_id, verdict_id, recovered_amt, money_rate on cases.cases
  for each row execute function cases.case_money_set();

-- The daily rollup gets the money in the reporting currency (and the cases without a rate).
alter table cases.report_daily
  add column recovered numeric(14, 2) not null default 0,
  add column lost numeric(14, 2) not null default 0,
  add column fees numeric(14, 2) not null default 0,
  add column unrated integer not null default 0;
alter table cases.report_monthly
  add column recovered numeric(14, 2) not null default 0,
  add column lost numeric(14, 2) not null default 0,
  add column fees numeric(14, 2) not null default 0,
  add column unrated integer not null default 0;

-- 021's grouped upsert with the money columns.
create or replace function cases.report_daily_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_daily as r (tenant_id, ref, day, merchant_id, mid_id, currency_id, processor_id, card_type_id,
      reason_code_id, location, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6,
      represented, won_amount, b1, b2, b3, b4, b5, b6, recovered, lost, fees, unrated)
    select c.tenant_id, v.ref, v.day, c.merchant_id, c.mid_id, c.dispute_currency_id, coalesce(c.processor_id, 0),
      c.card_type_id, c.reason_code_id,
      case when ib.country_id is null or m.country_id is null then 0 when ib.country_id = m.country_id then 1 else 2 end,
      sum(c.sign), sum(c.sign * c.dispute_amt),
      sum(case when c.date_trans is not null then c.sign * (c.date_post - c.date_trans) else 0 end),
      sum(case when c.date_trans is not null then c.sign else 0 end),
      sum(case when c.cycle_id = 1 then c.sign else 0 end), sum(case when c.cycle_id = 2 then c.sign else 0 end),
      sum(case when c.cycle_id = 9 then c.sign else 0 end),
      sum(case when c.status_group_id = 1 then c.sign else 0 end), sum(case when c.status_group_id = 2 then c.sign else 0 end),
      sum(case when c.status_group_id = 3 then c.sign else 0 end), sum(case when c.status_group_id = 4 then c.sign else 0 end),
      sum(case when c.status_group_id = 5 then c.sign else 0 end),
      sum(case when c.verdict_id = 1 then c.sign else 0 end), sum(case when c.verdict_id = 2 then c.sign else 0 end),
      sum(case when c.verdict_id = 3 then c.sign else 0 end), sum(case when c.verdict_id = 4 then c.sign else 0 end),
      sum(case when c.verdict_id = 5 then c.sign else 0 end), sum(case when c.verdict_id = 6 then c.sign else 0 end),
      sum(case when c.status_id in (3, 6, 7, 8, 9, 10) then c.sign else 0 end),
      sum(case when c.verdict_id = 4 then c.sign * c.dispute_amt else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) < 25 then c.sign else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 25 and coalesce(c.trans_amt, c.dispute_amt) < 50 then c.sign else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 50 and coalesce(c.trans_amt, c.dispute_amt) < 100 then c.sign else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 100 and coalesce(c.trans_amt, c.dispute_amt) < 250 then c.sign else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 250 and coalesce(c.trans_amt, c.dispute_amt) < 500 then c.sign else 0 end),
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 500 then c.sign else 0 end),
      sum(c.sign * coalesce(c.rep_recovered, 0)), sum(c.sign * coalesce(c.rep_lost, 0)),
      sum(case when c.money_rate is not null then c.sign * c.rep_fees else 0 end),
      sum(case when c.money_rate is null then c.sign else 0 end)
    from (%s) c
    cross join lateral (values (1::smallint, c.date_post), (2::smallint, c.date_trans)) v(ref, day)
    left join cases.merchants m on m.id = c.merchant_id
    left join cases.issuer_bins ib on ib.bin = c.cc_bin
    where v.day is not null
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    on conflict (tenant_id, ref, day, merchant_id, mid_id, currency_id, processor_id, card_type_id, reason_code_id, location)
    do update set n = r.n + excluded.n, amount = r.amount + excluded.amount, span_days = r.span_days + excluded.span_days,
      span_n = r.span_n + excluded.span_n, c1 = r.c1 + excluded.c1, c2 = r.c2 + excluded.c2, c9 = r.c9 + excluded.c9,
      s1 = r.s1 + excluded.s1, s2 = r.s2 + excluded.s2, s3 = r.s3 + excluded.s3, s4 = r.s4 + excluded.s4,
      s5 = r.s5 + excluded.s5, v1 = r.v1 + excluded.v1, v2 = r.v2 + excluded.v2, v3 = r.v3 + excluded.v3,
      v4 = r.v4 + excluded.v4, v5 = r.v5 + excluded.v5, v6 = r.v6 + excluded.v6,
      represented = r.represented + excluded.represented, won_amount = r.won_amount + excluded.won_amount,
      b1 = r.b1 + excluded.b1, b2 = r.b2 + excluded.b2, b3 = r.b3 + excluded.b3, b4 = r.b4 + excluded.b4,
      b5 = r.b5 + excluded.b5, b6 = r.b6 + excluded.b6, recovered = r.recovered + excluded.recovered,
      lost = r.lost + excluded.lost, fees = r.fees + excluded.fees, unrated = r.unrated + excluded.unrated
  $q$, src)
$fn$;

-- 021's trigger function with the money columns among those a report reads.
create or replace function cases.report_daily_apply() returns trigger language plpgsql as $$
declare
  changed text := $c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post, o.date_trans, o.dispute_currency_id,
    o.processor_id, o.card_type_id, o.reason_code_id, o.cc_bin, o.dispute_amt, o.trans_amt, o.cycle_id, o.status_id,
    o.status_group_id, o.verdict_id, o.money_rate, o.rep_recovered, o.rep_lost, o.rep_fees) is distinct from
    (n.tenant_id, n.merchant_id, n.mid_id, n.date_post, n.date_trans, n.dispute_currency_id, n.processor_id,
    n.card_type_id, n.reason_code_id, n.cc_bin, n.dispute_amt, n.trans_amt, n.cycle_id, n.status_id,
    n.status_group_id, n.verdict_id, n.money_rate, n.rep_recovered, n.rep_lost, n.rep_fees)$c$;
begin
  if tg_op = 'INSERT' then
    execute cases.report_daily_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.report_daily_sql('select -1 as sign, * from old_rows');
  else
    execute cases.report_daily_sql(format(
      'select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id where %1$s
       union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id where %1$s', changed));
  end if;
  return null;
end $$;

-- 039's month follower with the money columns.
create or replace function cases.report_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_monthly as r (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6, represented, won_amount, b1, b2, b3, b4, b5, b6, recovered, lost, fees, unrated)
    select d.tenant_id, d.ref, date_trunc('month', d.day)::date, d.merchant_id, d.mid_id, d.currency_id, d.processor_id,
      sum(d.sign * d.n), sum(d.sign * d.amount), sum(d.sign * d.span_days), sum(d.sign * d.span_n), sum(d.sign * d.c1), sum(d.sign * d.c2), sum(d.sign * d.c9), sum(d.sign * d.s1), sum(d.sign * d.s2), sum(d.sign * d.s3), sum(d.sign * d.s4), sum(d.sign * d.s5), sum(d.sign * d.v1), sum(d.sign * d.v2), sum(d.sign * d.v3), sum(d.sign * d.v4), sum(d.sign * d.v5), sum(d.sign * d.v6), sum(d.sign * d.represented), sum(d.sign * d.won_amount), sum(d.sign * d.b1), sum(d.sign * d.b2), sum(d.sign * d.b3), sum(d.sign * d.b4), sum(d.sign * d.b5), sum(d.sign * d.b6),
      sum(d.sign * d.recovered), sum(d.sign * d.lost), sum(d.sign * d.fees), sum(d.sign * d.unrated)
    from (%s) d
    group by 1, 2, 3, 4, 5, 6, 7
    order by 1, 2, 3, 4, 5, 6, 7
    on conflict (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id)
    do update set n = r.n + excluded.n, amount = r.amount + excluded.amount, span_days = r.span_days + excluded.span_days, span_n = r.span_n + excluded.span_n, c1 = r.c1 + excluded.c1, c2 = r.c2 + excluded.c2, c9 = r.c9 + excluded.c9, s1 = r.s1 + excluded.s1, s2 = r.s2 + excluded.s2, s3 = r.s3 + excluded.s3, s4 = r.s4 + excluded.s4, s5 = r.s5 + excluded.s5, v1 = r.v1 + excluded.v1, v2 = r.v2 + excluded.v2, v3 = r.v3 + excluded.v3, v4 = r.v4 + excluded.v4, v5 = r.v5 + excluded.v5, v6 = r.v6 + excluded.v6, represented = r.represented + excluded.represented, won_amount = r.won_amount + excluded.won_amount, b1 = r.b1 + excluded.b1, b2 = r.b2 + excluded.b2, b3 = r.b3 + excluded.b3, b4 = r.b4 + excluded.b4, b5 = r.b5 + excluded.b5, b6 = r.b6 + excluded.b6,
      recovered = r.recovered + excluded.recovered, lost = r.lost + excluded.lost, fees = r.fees + excluded.fees, unrated = r.unrated + excluded.unrated
  $q$, src)
$fn$;

-- Existing cases get their money (no settings yet: reporting currency USD, no fees, so foreign-currency cases
-- are unrated until rates are loaded); the rollup triggers add it to the day and month rows.
update cases.cases set money_rate = null;
