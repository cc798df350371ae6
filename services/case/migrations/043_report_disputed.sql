-- The disputed amount in the reporting currency in the report rollups (issue 33 follow-up). Migration 040 keeps
-- it on each case (rep_disputed: the disputed amount at the case's rate, null without one) but the rollups
-- summed only recovered, lost and fees, so the win rate table and the month-to-date report could only add the
-- disputed amounts of every currency together (cases.report_daily.amount) and label the sum with one symbol.
-- Here the rollups sum it as they sum the ledger's other columns: `disputed`, the cases with a rate only (those
-- without one are the `unrated` count), so a report reads it from the same rows, never from cases.

alter table cases.report_daily add column disputed numeric(14, 2) not null default 0;
alter table cases.report_monthly add column disputed numeric(14, 2) not null default 0;
alter table cases.report_monthly_key add column disputed numeric(14, 2) not null default 0;
alter table cases.report_monthly_key_delta add column disputed numeric(14, 2) not null default 0;

-- 042's view was expanded with the columns of its day: add the new one (the last of both tables).
create or replace view cases.report_monthly_key_all as
  select * from cases.report_monthly_key
  union all
  select * from cases.report_monthly_key_delta;

-- 042's counters of the key rows (the delta append and the fold take them from here).
create or replace function cases.report_key_counters() returns text[] language sql immutable as $$
  select array['n', 'amount', 'span_days', 'span_n', 'c1', 'c2', 'c9', 's1', 's2', 's3', 's4', 's5', 'v1', 'v2', 'v3',
    'v4', 'v5', 'v6', 'represented', 'won_amount', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'recovered', 'lost', 'fees',
    'unrated', 'disputed']
$$;

-- 040's grouped upsert of the day rows with the disputed amount in the reporting currency.
create or replace function cases.report_daily_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_daily as r (tenant_id, ref, day, merchant_id, mid_id, currency_id, processor_id, card_type_id,
      reason_code_id, location, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6,
      represented, won_amount, b1, b2, b3, b4, b5, b6, recovered, lost, fees, unrated, disputed)
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
      sum(case when c.money_rate is null then c.sign else 0 end), sum(c.sign * coalesce(c.rep_disputed, 0))
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
      lost = r.lost + excluded.lost, fees = r.fees + excluded.fees, unrated = r.unrated + excluded.unrated,
      disputed = r.disputed + excluded.disputed
  $q$, src)
$fn$;

-- 040's month follower with it.
create or replace function cases.report_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_monthly as r (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6, represented, won_amount, b1, b2, b3, b4, b5, b6, recovered, lost, fees, unrated, disputed)
    select d.tenant_id, d.ref, date_trunc('month', d.day)::date, d.merchant_id, d.mid_id, d.currency_id, d.processor_id,
      sum(d.sign * d.n), sum(d.sign * d.amount), sum(d.sign * d.span_days), sum(d.sign * d.span_n), sum(d.sign * d.c1), sum(d.sign * d.c2), sum(d.sign * d.c9), sum(d.sign * d.s1), sum(d.sign * d.s2), sum(d.sign * d.s3), sum(d.sign * d.s4), sum(d.sign * d.s5), sum(d.sign * d.v1), sum(d.sign * d.v2), sum(d.sign * d.v3), sum(d.sign * d.v4), sum(d.sign * d.v5), sum(d.sign * d.v6), sum(d.sign * d.represented), sum(d.sign * d.won_amount), sum(d.sign * d.b1), sum(d.sign * d.b2), sum(d.sign * d.b3), sum(d.sign * d.b4), sum(d.sign * d.b5), sum(d.sign * d.b6),
      sum(d.sign * d.recovered), sum(d.sign * d.lost), sum(d.sign * d.fees), sum(d.sign * d.unrated),
      sum(d.sign * d.disputed)
    from (%s) d
    group by 1, 2, 3, 4, 5, 6, 7
    order by 1, 2, 3, 4, 5, 6, 7
    on conflict (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id)
    do update set n = r.n + excluded.n, amount = r.amount + excluded.amount, span_days = r.span_days + excluded.span_days, span_n = r.span_n + excluded.span_n, c1 = r.c1 + excluded.c1, c2 = r.c2 + excluded.c2, c9 = r.c9 + excluded.c9, s1 = r.s1 + excluded.s1, s2 = r.s2 + excluded.s2, s3 = r.s3 + excluded.s3, s4 = r.s4 + excluded.s4, s5 = r.s5 + excluded.s5, v1 = r.v1 + excluded.v1, v2 = r.v2 + excluded.v2, v3 = r.v3 + excluded.v3, v4 = r.v4 + excluded.v4, v5 = r.v5 + excluded.v5, v6 = r.v6 + excluded.v6, represented = r.represented + excluded.represented, won_amount = r.won_amount + excluded.won_amount, b1 = r.b1 + excluded.b1, b2 = r.b2 + excluded.b2, b3 = r.b3 + excluded.b3, b4 = r.b4 + excluded.b4, b5 = r.b5 + excluded.b5, b6 = r.b6 + excluded.b6,
      recovered = r.recovered + excluded.recovered, lost = r.lost + excluded.lost, fees = r.fees + excluded.fees, unrated = r.unrated + excluded.unrated,
      disputed = r.disputed + excluded.disputed
  $q$, src)
$fn$;

-- The existing day rows get their cases' converted disputed amounts; the update fires the month follower
-- (039, 042), which adds each day row's change to its month row and appends it to the key deltas, folded here.
update cases.report_daily r set disputed = s.disputed
from (
  select c.tenant_id, v.ref, v.day, c.merchant_id, c.mid_id, c.dispute_currency_id as currency_id,
    coalesce(c.processor_id, 0) as processor_id, c.card_type_id, c.reason_code_id,
    case when ib.country_id is null or m.country_id is null then 0 when ib.country_id = m.country_id then 1 else 2 end
      as location,
    sum(coalesce(c.rep_disputed, 0)) as disputed
  from cases.cases c
  cross join lateral (values (1::smallint, c.date_post), (2::smallint, c.date_trans)) v(ref, day)
  left join cases.merchants m on m.id = c.merchant_id
  left join cases.issuer_bins ib on ib.bin = c.cc_bin
  where v.day is not null
  group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  having sum(coalesce(c.rep_disputed, 0)) <> 0
) s
where r.tenant_id = s.tenant_id and r.ref = s.ref and r.day = s.day and r.merchant_id = s.merchant_id
  and r.mid_id = s.mid_id and r.currency_id = s.currency_id and r.processor_id = s.processor_id
  and r.card_type_id = s.card_type_id and r.reason_code_id = s.reason_code_id and r.location = s.location;

select cases.report_monthly_key_fold();
