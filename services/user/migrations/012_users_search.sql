-- The users grid's '%term%' search at 100,000 users (issue 16 figures): one lowered text of the
-- searched fields, stored, and a trigram index on it, so a search reads the few matching rows instead of
-- lowering and scanning every user of the tenant. pg_trgm ships with Postgres; the embedded PGlite loads
-- no contrib extension, so there the search scans (small data) and the index is skipped.
alter table users.users add column search_lc text
  generated always as (lower(username || ' ' || fname || ' ' || lname || ' ' || email)) stored;

do $$
declare
  ns text;
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm unavailable (%): the users search without a trigram index', sqlerrm;
    return;
  end;
  select n.nspname into ns from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm';
  execute format('create index users_search_trgm on users.users using gin (search_lc %I.gin_trgm_ops)', ns);
end $$;
