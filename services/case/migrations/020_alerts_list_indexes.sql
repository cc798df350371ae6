-- The alerts grid at a million alerts (issue 14): a page sorted on a column of the alert walks an index and
-- stops after it; the search ORs one index per field (order id, descriptor, card last four, refund id).
create index alerts_tenant_amount on cases.alerts (tenant_id, trans_amount, id);
create index alerts_tenant_trans_date on cases.alerts (tenant_id, trans_date, id);
create index alerts_tenant_expiration on cases.alerts (tenant_id, expiration_date, id);
create index alerts_tenant_last_four on cases.alerts (tenant_id, cc_last_four);
create index alerts_search_refund on cases.alerts (tenant_id, lower(refund_id) text_pattern_ops);

-- Alerts per UTC day and merchant, kept by statement triggers (one grouped upsert per statement, so the
-- seed's bulk insert and a bulk refund cost one aggregate each): the grid's total without search, descriptor
-- or MID conditions is a sum over days instead of a count over up to a million rows.
create table cases.alert_daily_counts (
  tenant_id text not null,
  day date not null,
  merchant_id bigint not null,
  n integer not null,
  primary key (tenant_id, day, merchant_id)
);

insert into cases.alert_daily_counts (tenant_id, day, merchant_id, n)
select tenant_id, (alert_date at time zone 'UTC')::date, merchant_id, count(*) from cases.alerts group by 1, 2, 3;

create function cases.alert_daily_counts_added() returns trigger language plpgsql as $$
begin
  insert into cases.alert_daily_counts as c (tenant_id, day, merchant_id, n)
  select tenant_id, (alert_date at time zone 'UTC')::date, merchant_id, count(*) from added group by 1, 2, 3
  on conflict (tenant_id, day, merchant_id) do update set n = c.n + excluded.n;
  return null;
end $$;

create function cases.alert_daily_counts_removed() returns trigger language plpgsql as $$
begin
  insert into cases.alert_daily_counts as c (tenant_id, day, merchant_id, n)
  select tenant_id, (alert_date at time zone 'UTC')::date, merchant_id, -count(*) from removed group by 1, 2, 3
  on conflict (tenant_id, day, merchant_id) do update set n = c.n + excluded.n;
  return null;
end $$;

create function cases.alert_daily_counts_moved() returns trigger language plpgsql as $$
begin
  insert into cases.alert_daily_counts as c (tenant_id, day, merchant_id, n)
  select tenant_id, day, merchant_id, sum(n) from (
    select tenant_id, (alert_date at time zone 'UTC')::date as day, merchant_id, -1 as n from removed
    union all
    select tenant_id, (alert_date at time zone 'UTC')::date, merchant_id, 1 from added
  ) d group by 1, 2, 3 having sum(n) <> 0
  on conflict (tenant_id, day, merchant_id) do update set n = c.n + excluded.n;
  return null;
end $$;

create trigger alerts_counted_insert after insert on cases.alerts
  referencing new table as added for each statement execute function cases.alert_daily_counts_added();
create trigger alerts_counted_delete after delete on cases.alerts
  referencing old table as removed for each statement execute function cases.alert_daily_counts_removed();
create trigger alerts_counted_update after update on cases.alerts
  referencing old table as removed new table as added for each statement execute function cases.alert_daily_counts_moved();
