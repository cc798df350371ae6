-- Chargebacks per MID by post date, for the dashboard's MID table (spec 1 §2.5: new, non-fraud, fraud and
-- defended chargebacks per MID, 90 days by default). Issue 31: counted from the cases it was the costliest
-- statement of a crowd (80,000 cases of a tenant per call). Here a MID has a row per day with chargebacks
-- (about half as many rows as cases) and one per month; a range reads its whole months from mid_monthly and
-- the days at its edges from mid_daily (as report-range.ts does for the reports).
create table cases.mid_daily (
  tenant_id text not null,
  day date not null,
  merchant_id bigint not null,
  mid_id bigint not null,
  n integer not null,
  fraud integer not null,
  -- A representment was sent (documents uploaded or later) or the case was won.
  defended integer not null,
  primary key (tenant_id, day, merchant_id, mid_id)
) with (fillfactor = 70);

create table cases.mid_monthly (
  tenant_id text not null,
  month date not null check (extract(day from month) = 1),
  merchant_id bigint not null,
  mid_id bigint not null,
  n integer not null,
  fraud integer not null,
  defended integer not null,
  primary key (tenant_id, month, merchant_id, mid_id)
) with (fillfactor = 70);

-- The grouped upsert of signed case rows into one of the two tables ('day' or 'month').
create function cases.mid_activity_sql(src text, grain text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.%1$I as r (tenant_id, %2$I, merchant_id, mid_id, n, fraud, defended)
    select c.tenant_id, date_trunc(%2$L, c.date_post)::date, c.merchant_id, c.mid_id, sum(c.sign),
      sum(case when c.is_fraud then c.sign else 0 end),
      sum(case when c.status_id in (3, 6, 7, 8, 9, 10) or c.verdict_id = 4 then c.sign else 0 end)
    from (%3$s) c
    group by 1, 2, 3, 4
    -- In key order: a rebuild writes a day's rows together, so a range reads few pages.
    order by 1, 2, 3, 4
    on conflict (tenant_id, %2$I, merchant_id, mid_id)
    do update set n = r.n + excluded.n, fraud = r.fraud + excluded.fraud, defended = r.defended + excluded.defended
  $q$, case grain when 'day' then 'mid_daily' else 'mid_monthly' end, grain, src)
$fn$;

-- Status and verdict changes move a case in or out of 'defended'; other columns of the case move nothing here.
create function cases.mid_activity_apply() returns trigger language plpgsql as $$
declare
  changed text := $c$(o.tenant_id, o.merchant_id, o.mid_id, o.date_post, o.is_fraud,
    o.status_id in (3, 6, 7, 8, 9, 10) or o.verdict_id = 4) is distinct from (n.tenant_id, n.merchant_id, n.mid_id,
    n.date_post, n.is_fraud, n.status_id in (3, 6, 7, 8, 9, 10) or n.verdict_id = 4)$c$;
  src text;
begin
  if tg_op = 'INSERT' then
    src := 'select 1 as sign, * from new_rows';
  elsif tg_op = 'DELETE' then
    src := 'select -1 as sign, * from old_rows';
  else
    src := format('select -1 as sign, o.* from old_rows o join new_rows n on n.id = o.id where %1$s
       union all select 1 as sign, n.* from new_rows n join old_rows o on o.id = n.id where %1$s', changed);
  end if;
  execute cases.mid_activity_sql(src, 'day');
  execute cases.mid_activity_sql(src, 'month');
  return null;
end $$;

create trigger mid_activity_insert after insert on cases.cases
  referencing new table as new_rows for each statement execute function cases.mid_activity_apply();
create trigger mid_activity_update after update on cases.cases
  referencing old table as old_rows new table as new_rows for each statement execute function cases.mid_activity_apply();
create trigger mid_activity_delete after delete on cases.cases
  referencing old table as old_rows for each statement execute function cases.mid_activity_apply();

-- The rebuild of a tenant's rollups (after its seed) covers these too.
create or replace function cases.report_daily_rebuild(tenant text) returns void language plpgsql as $$
declare
  src text := format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant);
begin
  delete from cases.report_daily where tenant_id = tenant;
  execute cases.report_daily_sql(src);
  delete from cases.report_monthly where tenant_id = tenant;
  execute cases.report_monthly_sql(src);
  delete from cases.mid_daily where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'day');
  delete from cases.mid_monthly where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'month');
end $$;

do $$ begin
  execute cases.mid_activity_sql('select 1 as sign, * from cases.cases', 'day');
  execute cases.mid_activity_sql('select 1 as sign, * from cases.cases', 'month');
end $$;
