-- The dashboard's chart of chargebacks per post day (dashboard-repository.ts byDate) sums mid_daily.n over
-- 90 days: 43,000 rows of a tenant at 1,000,000 cases, fetched from the table page by page, and under a
-- crowd the costliest statement of Postgres (issue 31). With n in the primary key's index it reads the
-- index alone: 31-42 ms -> 14 ms for a whole tenant, 22-28 ms -> 10 ms for 40 merchants (closing note of
-- 2026-11-28). Only n: defended changes with statuses and verdicts, and kept out of the index those updates
-- can stay HOT. The keys and the name are unchanged (the upserts' conflict target, the seed's cluster).
alter table cases.mid_daily drop constraint mid_daily_pkey,
  add constraint mid_daily_pkey primary key (tenant_id, day, merchant_id, mid_id) include (n);
