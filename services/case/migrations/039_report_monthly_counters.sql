-- Every counter of the daily rollup in the monthly one too (issue 31). The status, verdict and amount-band
-- charts, the totals, the platform chart and the win rate by merchant only group by columns the monthly rollup
-- keeps, yet summed a day row per case: a report over a year read 330,000 rows of a tenant (0.5-1 s of CPU
-- at 1,000,000 cases). A month of them is about 3,000 rows (a MID and currency each), so the whole months of a
-- range come from here and only the days at its edges from report_daily (report-range.ts).
--
-- The monthly rows now follow the daily ones (a trigger on report_daily adds each change of a day row to its
-- month) instead of following the cases a second time: one grouping of case rows per statement, and the two
-- rollups agree by construction.

alter table cases.report_monthly
  add column span_days bigint not null default 0,
  add column span_n integer not null default 0,
  add column c1 integer not null default 0,
  add column c2 integer not null default 0,
  add column c9 integer not null default 0,
  add column s1 integer not null default 0,
  add column s2 integer not null default 0,
  add column s3 integer not null default 0,
  add column s4 integer not null default 0,
  add column s5 integer not null default 0,
  add column v1 integer not null default 0,
  add column v2 integer not null default 0,
  add column v3 integer not null default 0,
  add column v4 integer not null default 0,
  add column v5 integer not null default 0,
  add column v6 integer not null default 0,
  add column represented integer not null default 0,
  add column won_amount numeric(14, 2) not null default 0,
  add column b1 integer not null default 0,
  add column b2 integer not null default 0,
  add column b3 integer not null default 0,
  add column b4 integer not null default 0,
  add column b5 integer not null default 0,
  add column b6 integer not null default 0;

drop trigger report_monthly_insert on cases.cases;
drop trigger report_monthly_update on cases.cases;
drop trigger report_monthly_delete on cases.cases;
drop function cases.report_monthly_apply();
drop function cases.report_monthly_sql(text);

-- The grouped upsert of signed report_daily rows into their months.
create function cases.report_monthly_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_monthly as r (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount, span_days, span_n, c1, c2, c9, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5, v6, represented, won_amount, b1, b2, b3, b4, b5, b6)
    select d.tenant_id, d.ref, date_trunc('month', d.day)::date, d.merchant_id, d.mid_id, d.currency_id, d.processor_id,
      sum(d.sign * d.n), sum(d.sign * d.amount), sum(d.sign * d.span_days), sum(d.sign * d.span_n), sum(d.sign * d.c1), sum(d.sign * d.c2), sum(d.sign * d.c9), sum(d.sign * d.s1), sum(d.sign * d.s2), sum(d.sign * d.s3), sum(d.sign * d.s4), sum(d.sign * d.s5), sum(d.sign * d.v1), sum(d.sign * d.v2), sum(d.sign * d.v3), sum(d.sign * d.v4), sum(d.sign * d.v5), sum(d.sign * d.v6), sum(d.sign * d.represented), sum(d.sign * d.won_amount), sum(d.sign * d.b1), sum(d.sign * d.b2), sum(d.sign * d.b3), sum(d.sign * d.b4), sum(d.sign * d.b5), sum(d.sign * d.b6)
    from (%s) d
    group by 1, 2, 3, 4, 5, 6, 7
    order by 1, 2, 3, 4, 5, 6, 7
    on conflict (tenant_id, ref, month, merchant_id, mid_id, currency_id, processor_id)
    do update set n = r.n + excluded.n, amount = r.amount + excluded.amount, span_days = r.span_days + excluded.span_days, span_n = r.span_n + excluded.span_n, c1 = r.c1 + excluded.c1, c2 = r.c2 + excluded.c2, c9 = r.c9 + excluded.c9, s1 = r.s1 + excluded.s1, s2 = r.s2 + excluded.s2, s3 = r.s3 + excluded.s3, s4 = r.s4 + excluded.s4, s5 = r.s5 + excluded.s5, v1 = r.v1 + excluded.v1, v2 = r.v2 + excluded.v2, v3 = r.v3 + excluded.v3, v4 = r.v4 + excluded.v4, v5 = r.v5 + excluded.v5, v6 = r.v6 + excluded.v6, represented = r.represented + excluded.represented, won_amount = r.won_amount + excluded.won_amount, b1 = r.b1 + excluded.b1, b2 = r.b2 + excluded.b2, b3 = r.b3 + excluded.b3, b4 = r.b4 + excluded.b4, b5 = r.b5 + excluded.b5, b6 = r.b6 + excluded.b6
  $q$, src)
$fn$;

create function cases.report_monthly_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    execute cases.report_monthly_sql('select 1 as sign, * from new_rows');
  elsif tg_op = 'DELETE' then
    execute cases.report_monthly_sql('select -1 as sign, * from old_rows');
  else
    execute cases.report_monthly_sql('select -1 as sign, * from old_rows union all select 1 as sign, * from new_rows');
  end if;
  return null;
end $$;

-- An upsert of day rows (the case triggers) fires the insert trigger with the new day rows and the update
-- trigger with the changed ones.
create trigger report_monthly_insert after insert on cases.report_daily
  referencing new table as new_rows for each statement execute function cases.report_monthly_follow();
create trigger report_monthly_update after update on cases.report_daily
  referencing old table as old_rows new table as new_rows for each statement execute function cases.report_monthly_follow();
create trigger report_monthly_delete after delete on cases.report_daily
  referencing old table as old_rows for each statement execute function cases.report_monthly_follow();

-- A tenant's rebuild (after its seed): the monthly rows follow the daily ones.
create or replace function cases.report_daily_rebuild(tenant text) returns void language plpgsql as $$
declare
  src text := format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant);
begin
  -- Deleting the day rows takes their months to zero; the zero rows go, then the inserted days fill them.
  delete from cases.report_daily where tenant_id = tenant;
  delete from cases.report_monthly where tenant_id = tenant;
  execute cases.report_daily_sql(src);
  delete from cases.mid_daily where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'day');
  delete from cases.mid_monthly where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'month');
end $$;

truncate cases.report_monthly;
do $$ begin
  execute cases.report_monthly_sql('select 1 as sign, * from cases.report_daily');
end $$;
