-- Reports and analytics (issue 18, spec 3 §2 Reports, Resultant KPI, MID Health, Reconciliation).
--
-- The ratio reports need transactions, so a merchant's daily sales per MID live here (seeded; a real
-- deployment loads them from the processors' settlement files). Chargeback figures come from a daily
-- rollup of the cases kept by statement triggers (one grouped upsert per statement, like the alert
-- counts of 020), so a report sums rollup rows of its date window instead of reading case rows.

-- Card issuers by BIN: the issuer chart's label and the issuer country that makes a chargeback domestic
-- (same country as the merchant) or offshore. A BIN missing here counts as 'Unknown'.
create table cases.issuer_bins (
  bin text primary key,
  issuer_name text not null,
  country_id integer not null references cases.countries (id)
);

-- Daily transactions (sales) per MID, currency and card type.
create table cases.transactions_daily (
  tenant_id text not null references cases.tenants (id),
  day date not null,
  merchant_id bigint not null references cases.merchants (id),
  mid_id bigint not null references cases.mids (id),
  currency_id integer not null references cases.currencies (id),
  card_type_id smallint not null references cases.card_types (id),
  -- The MID's processor (the 'platform'); 0 when the MID has none.
  processor_id integer not null,
  trans_count integer not null check (trans_count >= 0),
  trans_amount numeric(14, 2) not null check (trans_amount >= 0),
  -- Sales on cards issued in the merchant's country.
  domestic_count integer not null check (domestic_count >= 0),
  -- Distinct customers (cards) of the day, and those of them who bought more than once.
  customers integer not null check (customers >= 0),
  repeat_customers integer not null check (repeat_customers >= 0),
  primary key (tenant_id, day, mid_id, currency_id, card_type_id)
);
create index transactions_daily_merchant on cases.transactions_daily (tenant_id, merchant_id, day);
create index transactions_daily_mid on cases.transactions_daily (tenant_id, mid_id, day);

-- Chargebacks per day, twice: ref 1 by post date, ref 2 by transaction date (the reports' 'date
-- reference'). Small dimensions are counter columns (cycles, status groups, verdicts, amount bands), the
-- others are key columns. location: 0 unknown, 1 domestic, 2 offshore.
create table cases.report_daily (
  tenant_id text not null,
  ref smallint not null check (ref in (1, 2)),
  day date not null,
  merchant_id bigint not null,
  mid_id bigint not null,
  currency_id integer not null,
  processor_id integer not null,
  card_type_id smallint not null,
  reason_code_id integer not null,
  location smallint not null,
  n integer not null,
  amount numeric(14, 2) not null,
  -- Sum of (post date - transaction date) in days over the cases that have both.
  span_days bigint not null,
  span_n integer not null,
  c1 integer not null,
  c2 integer not null,
  c9 integer not null,
  s1 integer not null,
  s2 integer not null,
  s3 integer not null,
  s4 integer not null,
  s5 integer not null,
  v1 integer not null,
  v2 integer not null,
  v3 integer not null,
  v4 integer not null,
  v5 integer not null,
  v6 integer not null,
  -- A representment was sent (documents uploaded or later).
  represented integer not null,
  won_amount numeric(14, 2) not null,
  -- Transaction amount bands: <25, 25-50, 50-100, 100-250, 250-500, 500+ (dispute amount when no transaction amount).
  b1 integer not null,
  b2 integer not null,
  b3 integer not null,
  b4 integer not null,
  b5 integer not null,
  b6 integer not null,
  primary key (tenant_id, ref, day, merchant_id, mid_id, currency_id, processor_id, card_type_id, reason_code_id, location)
);
create index report_daily_merchant on cases.report_daily (tenant_id, merchant_id, ref, day);
create index report_daily_mid on cases.report_daily (tenant_id, mid_id, ref, day);

-- The grouped upsert over a source of signed case rows (sign 1 added, -1 removed). Shared by the
-- triggers (transition tables) and the rebuild of a tenant (after its seed).
create function cases.report_daily_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_daily as r (tenant_id, ref, day, merchant_id, mid_id, currency_id, processor_id, card_type_id,
      reason_code_id, location, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6,
      represented, won_amount, b1, b2, b3, b4, b5, b6)
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
      sum(case when coalesce(c.trans_amt, c.dispute_amt) >= 500 then c.sign else 0 end)
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
      b5 = r.b5 + excluded.b5, b6 = r.b6 + excluded.b6
  $q$, src)
$fn$;

-- The columns a report reads; an update that changes none of them (flags, assignment, comments) costs nothing.
create function cases.report_daily_apply() returns trigger language plpgsql as $$
declare
  changed text := $c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post, o.date_trans, o.dispute_currency_id,
    o.processor_id, o.card_type_id, o.reason_code_id, o.cc_bin, o.dispute_amt, o.trans_amt, o.cycle_id, o.status_id,
    o.status_group_id, o.verdict_id) is distinct from (n.tenant_id, n.merchant_id, n.mid_id, n.date_post, n.date_trans,
    n.dispute_currency_id, n.processor_id, n.card_type_id, n.reason_code_id, n.cc_bin, n.dispute_amt, n.trans_amt,
    n.cycle_id, n.status_id, n.status_group_id, n.verdict_id)$c$;
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

create trigger report_daily_insert after insert on cases.cases
  referencing new table as new_rows for each statement execute function cases.report_daily_apply();
create trigger report_daily_update after update on cases.cases
  referencing old table as old_rows new table as new_rows for each statement execute function cases.report_daily_apply();
create trigger report_daily_delete after delete on cases.cases
  referencing old table as old_rows for each statement execute function cases.report_daily_apply();

-- Recomputes a tenant's rollup from its cases (after the seed set issuer BINs, and for existing data).
create function cases.report_daily_rebuild(tenant text) returns void language plpgsql as $$
begin
  delete from cases.report_daily where tenant_id = tenant;
  execute cases.report_daily_sql(format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant));
end $$;

select cases.report_daily_rebuild(id) from cases.tenants;

-- Card and customer columns of the cases in a date window (issuer/BIN and repeat-customer charts), read
-- from the index alone.
create index cases_report_post on cases.cases (tenant_id, date_post)
  include (merchant_id, mid_id, dispute_currency_id, processor_id, card_type_id, cc_bin, cc_last_four, date_trans);
create index cases_report_trans on cases.cases (tenant_id, date_trans)
  include (merchant_id, mid_id, dispute_currency_id, processor_id, card_type_id, cc_bin, cc_last_four, date_post);

-- Reconciliation report (spec 3 §2, §3): a day of a processor flagged with a comment, or marked reviewed.
-- scope_merchant_id is the merchant whose users flagged it (0 for provider staff): each scope keeps its own marks.
create table cases.reconciliation_flags (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  scope_merchant_id bigint not null,
  processor_id integer not null references cases.processors (id),
  day date not null,
  comment text not null,
  created_by bigint,
  created_username text,
  created_at timestamptz not null default now(),
  unique (tenant_id, scope_merchant_id, processor_id, day)
);
create table cases.reconciliation_reviews (
  tenant_id text not null references cases.tenants (id),
  scope_merchant_id bigint not null,
  processor_id integer not null references cases.processors (id),
  day date not null,
  reviewed_by bigint,
  reviewer text not null,
  reviewed_at timestamptz not null default now(),
  primary key (tenant_id, scope_merchant_id, processor_id, day)
);
