-- Monthly rollups for report ranges of months (issue 18: every report call <= 100 ms at 1,000,000 cases).
--
-- report_daily keeps about one row per case and day (its key has every chart dimension), so a range of six
-- months sums some 190,000 rows. Series by month (Resultant KPI, chargebacks over sales) and totals only need
-- the filter dimensions (merchant, MID, currency, processor): a month of those is a row per MID and currency,
-- about ten times fewer. A report reads whole months of the range here and the days at its edges from the
-- daily tables (report-range.ts), so its figures are the same as a sum of days.

-- Chargebacks per month, by post date (ref 1) and by transaction date (ref 2).
create table cases.report_monthly (
  tenant_id text not null,
  ref smallint not null check (ref in (1, 2)),
  month date not null check (extract(day from month) = 1),
  merchant_id bigint not null,
  mid_id bigint not null,
  currency_id integer not null,
  processor_id integer not null,
  n integer not null,
  amount numeric(14, 2) not null,
  primary key (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id)
);
create index report_monthly_merchant on cases.report_monthly (tenant_id, merchant_id, ref, month);
create index report_monthly_mid on cases.report_monthly (tenant_id, mid_id, ref, month);

-- The grouped upsert over signed case rows (as report_daily_sql).
create function cases.report_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_monthly as r (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount)
    select c.tenant_id, v.ref, date_trunc('month', v.day)::date, c.merchant_id, c.mid_id, c.dispute_currency_id,
      coalesce(c.processor_id, 0), sum(c.sign), sum(c.sign * c.dispute_amt)
    from (%s) c
    cross join lateral (values (1::smallint, c.date_post), (2::smallint, c.date_trans)) v(ref, day)
    where v.day is not null
    group by 1, 2, 3, 4, 5, 6, 7
    on conflict (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id)
    do update set n = r.n + excluded.n, amount = r.amount + excluded.amount
  $q$, src)
$fn$;

-- Only the columns of its key and sums: status and verdict changes (the bulk jobs) move nothing here.
create function cases.report_monthly_apply() returns trigger language plpgsql as $$
declare
  changed text := $c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post, o.date_trans, o.dispute_currency_id,
    o.processor_id, o.dispute_amt) is distinct from (n.tenant_id, n.merchant_id, n.mid_id, n.date_post, n.date_trans,
    n.dispute_currency_id, n.processor_id, n.dispute_amt)$c$;
begin
  if tg_op = 'INSERT' then
    execute cases.report_monthly_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.report_monthly_sql('select -1 as sign, * from old_rows');
  else
    execute cases.report_monthly_sql(format(
      'select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id where %1$s
       union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id where %1$s', changed));
  end if;
  return null;
end $$;

create trigger report_monthly_insert after insert on cases.cases
  referencing new table as new_rows for each statement execute function cases.report_monthly_apply();
create trigger report_monthly_update after update on cases.cases
  referencing old table as old_rows new table as new_rows for each statement execute function cases.report_monthly_apply();
create trigger report_monthly_delete after delete on cases.cases
  referencing old table as old_rows for each statement execute function cases.report_monthly_apply();

-- The rebuild of a tenant's rollups (after its seed) covers the monthly one too.
create or replace function cases.report_daily_rebuild(tenant text) returns void language plpgsql as $$
begin
  delete from cases.report_daily where tenant_id = tenant;
  execute cases.report_daily_sql(format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant));
  delete from cases.report_monthly where tenant_id = tenant;
  execute cases.report_monthly_sql(format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant));
end $$;

insert into cases.report_monthly (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount)
select tenant_id, ref, date_trunc('month', day)::date, merchant_id, mid_id, currency_id, processor_id, sum(n), sum(amount)
from cases.report_daily group by 1, 2, 3, 4, 5, 6, 7;

-- Sales per month, kept from the daily rows by statement triggers (a settlement import is one statement).
create table cases.transactions_monthly (
  tenant_id text not null,
  month date not null check (extract(day from month) = 1),
  merchant_id bigint not null,
  mid_id bigint not null,
  currency_id integer not null,
  processor_id integer not null,
  trans_count bigint not null,
  trans_amount numeric(16, 2) not null,
  primary key (tenant_id, month, merchant_id, mid_id, currency_id, processor_id)
);
create index transactions_monthly_mid on cases.transactions_monthly (tenant_id, mid_id, month);

create function cases.transactions_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.transactions_monthly as t (tenant_id, month, merchant_id, mid_id, currency_id, processor_id,
      trans_count, trans_amount)
    select tenant_id, date_trunc('month', day)::date, merchant_id, mid_id, currency_id, processor_id,
      sum(sign * trans_count), sum(sign * trans_amount)
    from (%s) s group by 1, 2, 3, 4, 5, 6
    on conflict (tenant_id, month, merchant_id, mid_id, currency_id, processor_id)
    do update set trans_count = t.trans_count + excluded.trans_count, trans_amount = t.trans_amount + excluded.trans_amount
  $q$, src)
$fn$;

create function cases.transactions_monthly_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    execute cases.transactions_monthly_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.transactions_monthly_sql('select -1 as sign, * from old_rows');
  else
    execute cases.transactions_monthly_sql(
      'select -1 as sign, * from old_rows union all select 1 as sign, * from new_rows');
  end if;
  return null;
end $$;

create trigger transactions_monthly_insert after insert on cases.transactions_daily
  referencing new table as new_rows for each statement execute function cases.transactions_monthly_apply();
create trigger transactions_monthly_update after update on cases.transactions_daily
  referencing old table as old_rows new table as new_rows for each statement execute function cases.transactions_monthly_apply();
create trigger transactions_monthly_delete after delete on cases.transactions_daily
  referencing old table as old_rows for each statement execute function cases.transactions_monthly_apply();

insert into cases.transactions_monthly (tenant_id, month, merchant_id, mid_id, currency_id, processor_id, trans_count, trans_amount)
select tenant_id, date_trunc('month', day)::date, merchant_id, mid_id, currency_id, processor_id, sum(trans_count), sum(trans_amount)
from cases.transactions_daily group by 1, 2, 3, 4, 5, 6;

-- Alerts per UTC month, merchant, descriptor (its MID is read at query time, so a Select MID moves
-- nothing here), source and currency.
create table cases.alert_monthly (
  tenant_id text not null,
  month date not null check (extract(day from month) = 1),
  merchant_id bigint not null,
  descriptor_id bigint not null,
  source_id integer not null,
  currency_id integer not null,
  n integer not null,
  primary key (tenant_id, month, merchant_id, descriptor_id, source_id, currency_id)
);

create function cases.alert_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.alert_monthly as m (tenant_id, month, merchant_id, descriptor_id, source_id, currency_id, n)
    select tenant_id, date_trunc('month', alert_date at time zone 'UTC')::date, merchant_id, descriptor_id, source_id,
      currency_id, sum(sign)
    from (%s) s group by 1, 2, 3, 4, 5, 6 having sum(sign) <> 0
    on conflict (tenant_id, month, merchant_id, descriptor_id, source_id, currency_id) do update set n = m.n + excluded.n
  $q$, src)
$fn$;

-- Outcome and completion updates (the alerts' daily work) change none of these columns.
create function cases.alert_monthly_apply() returns trigger language plpgsql as $$
declare
  changed text := $c$(o.tenant_id, o.merchant_id, o.descriptor_id, o.source_id, o.currency_id, o.alert_date)
    is distinct from (n.tenant_id, n.merchant_id, n.descriptor_id, n.source_id, n.currency_id, n.alert_date)$c$;
begin
  if tg_op = 'INSERT' then
    execute cases.alert_monthly_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.alert_monthly_sql('select -1 as sign, * from old_rows');
  else
    execute cases.alert_monthly_sql(format(
      'select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id where %1$s
       union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id where %1$s', changed));
  end if;
  return null;
end $$;

create trigger alert_monthly_insert after insert on cases.alerts
  referencing new table as new_rows for each statement execute function cases.alert_monthly_apply();
create trigger alert_monthly_update after update on cases.alerts
  referencing old table as old_rows new table as new_rows for each statement execute function cases.alert_monthly_apply();
create trigger alert_monthly_delete after delete on cases.alerts
  referencing old table as old_rows for each statement execute function cases.alert_monthly_apply();

insert into cases.alert_monthly (tenant_id, month, merchant_id, descriptor_id, source_id, currency_id, n)
select tenant_id, date_trunc('month', alert_date at time zone 'UTC')::date, merchant_id, descriptor_id, source_id,
  currency_id, count(*)
from cases.alerts group by 1, 2, 3, 4, 5, 6;
