-- Whole-tenant months by reason code, card type and location (issues 31 and 33). The charts and sections keyed
-- by these (reason codes, card types, location, win rate, recovered revenue by reason code) summed the daily
-- rollup, which holds about a row per case (its key has every dimension): a year of a 1,000,000-case tenant is
-- 330,000 rows, 0.4 s. The monthly rollup cannot hold them (a MID and reason code each is again a row per case).
-- Here a month has a row per key for the whole tenant (61 reason codes, a few card types, three locations):
-- what a caller who sees the whole tenant, with no MID, currency or processor filter, reads for whole months
-- (report-range.ts keyedRowsSql); a narrower scope reads its merchants' day rows, as before.
--
-- Every write of a tenant's cases in a month changes these few rows, so writers must not update them: a
-- transaction holding one until its commit made every other writer of the tenant queue behind it, and two
-- writers of several statements each deadlocked (seen under the crowd bench). Writers only append their
-- signed changes to report_monthly_key_delta (the follower of report_daily, as report_monthly's in 039);
-- the job case.report-key-fold folds them into report_monthly_key every minute, alone. Readers read both
-- (report_monthly_key_all), so a report is exact whenever it is read.

create table cases.report_monthly_key (
  tenant_id text not null,
  ref smallint not null,
  month date not null,
  -- 1 reason_code_id, 2 card_type_id, 3 location
  dim smallint not null check (dim in (1, 2, 3)),
  key integer not null,
  n integer not null default 0,
  amount numeric(14, 2) not null default 0,
  span_days bigint not null default 0,
  span_n integer not null default 0,
  c1 integer not null default 0,
  c2 integer not null default 0,
  c9 integer not null default 0,
  s1 integer not null default 0,
  s2 integer not null default 0,
  s3 integer not null default 0,
  s4 integer not null default 0,
  s5 integer not null default 0,
  v1 integer not null default 0,
  v2 integer not null default 0,
  v3 integer not null default 0,
  v4 integer not null default 0,
  v5 integer not null default 0,
  v6 integer not null default 0,
  represented integer not null default 0,
  won_amount numeric(14, 2) not null default 0,
  b1 integer not null default 0,
  b2 integer not null default 0,
  b3 integer not null default 0,
  b4 integer not null default 0,
  b5 integer not null default 0,
  b6 integer not null default 0,
  recovered numeric(14, 2) not null default 0,
  lost numeric(14, 2) not null default 0,
  fees numeric(14, 2) not null default 0,
  unrated integer not null default 0,
  primary key (tenant_id, ref, dim, month, key)
) with (fillfactor = 70);

-- The changes not folded yet: appended by writers, never updated.
create table cases.report_monthly_key_delta (like cases.report_monthly_key);
create index report_monthly_key_delta_read on cases.report_monthly_key_delta (tenant_id, ref, dim, month);

create view cases.report_monthly_key_all as
  select * from cases.report_monthly_key
  union all
  select * from cases.report_monthly_key_delta;

-- The counters, as the monthly rollup's.
create function cases.report_key_counters() returns text[] language sql immutable as $$
  select array['n', 'amount', 'span_days', 'span_n', 'c1', 'c2', 'c9', 's1', 's2', 's3', 's4', 's5', 'v1', 'v2', 'v3',
    'v4', 'v5', 'v6', 'represented', 'won_amount', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'recovered', 'lost', 'fees',
    'unrated']
$$;

-- The signed report_daily rows of `src` grouped into their months' key rows, appended to the deltas.
create function cases.report_monthly_key_sql(src text) returns text language sql immutable as $fn$
  select format($q$
    insert into cases.report_monthly_key_delta (tenant_id, ref, month, dim, key, %2$s)
    select d.tenant_id, d.ref, date_trunc('month', d.day)::date, k.dim, k.key, %3$s
    from (%1$s) d
    cross join lateral (values (1::smallint, d.reason_code_id), (2::smallint, d.card_type_id::integer),
      (3::smallint, d.location::integer)) k(dim, key)
    group by 1, 2, 3, 4, 5
  $q$, src,
    string_agg(c, ', '),
    string_agg(format('sum(d.sign * d.%s)', c), ', '))
  from unnest(cases.report_key_counters()) c
$fn$;

-- Folds the deltas into their rows, one folder at a time (a second caller waits, then folds what is left).
-- The delete sees only committed deltas; those of transactions still open stay for the next fold.
create function cases.report_monthly_key_fold() returns bigint language plpgsql as $fn$
declare
  folded bigint;
begin
  perform pg_advisory_xact_lock(hashtext('cases.report_monthly_key_fold'));
  execute format($q$
    with d as (delete from cases.report_monthly_key_delta returning *)
    insert into cases.report_monthly_key as r (tenant_id, ref, month, dim, key, %1$s)
    select tenant_id, ref, month, dim, key, %2$s from d
    group by 1, 2, 3, 4, 5
    order by 1, 2, 4, 3, 5
    on conflict (tenant_id, ref, dim, month, key) do update set %3$s
  $q$,
    (select string_agg(c, ', ') from unnest(cases.report_key_counters()) c),
    (select string_agg(format('sum(%s)', c), ', ') from unnest(cases.report_key_counters()) c),
    (select string_agg(format('%1$s = r.%1$s + excluded.%1$s', c), ', ') from unnest(cases.report_key_counters()) c));
  get diagnostics folded = row_count;
  return folded;
end $fn$;

-- 039's follower, now feeding both monthly rollups from the same signed day rows.
create or replace function cases.report_monthly_follow() returns trigger language plpgsql as $$
declare
  src text;
begin
  if tg_op = 'INSERT' then
    src := 'select 1 as sign, * from new_rows';
  elsif tg_op = 'DELETE' then
    src := 'select -1 as sign, * from old_rows';
  else
    src := 'select -1 as sign, * from old_rows union all select 1 as sign, * from new_rows';
  end if;
  execute cases.report_monthly_sql(src);
  execute cases.report_monthly_key_sql(src);
  return null;
end $$;

-- 039's rebuild of a tenant (after its seed), clearing the key rows too.
create or replace function cases.report_daily_rebuild(tenant text) returns void language plpgsql as $$
declare
  src text := format('select 1 as sign, * from cases.cases where tenant_id = %L', tenant);
begin
  delete from cases.report_daily where tenant_id = tenant;
  delete from cases.report_monthly where tenant_id = tenant;
  delete from cases.report_monthly_key where tenant_id = tenant;
  delete from cases.report_monthly_key_delta where tenant_id = tenant;
  execute cases.report_daily_sql(src);
  perform cases.report_monthly_key_fold();
  delete from cases.mid_daily where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'day');
  delete from cases.mid_monthly where tenant_id = tenant;
  execute cases.mid_activity_sql(src, 'month');
end $$;

do $$ begin
  execute cases.report_monthly_key_sql('select 1 as sign, * from cases.report_daily');
  perform cases.report_monthly_key_fold();
end $$;
