-- Issue 15 figures (10,000 merchants, 100,000 MIDs): the lazy merchant tree and the MID searches.

-- The tree's name order: case and accents ignored (ICU primary strength, as Intl.Collator('en',
-- { sensitivity: 'base' }) did in the service before), ties broken by id. Non-deterministic, so equal
-- names compare equal and the id decides. Without ICU (a Postgres built without it) byte order stands in.
do $$
begin
  if exists (select 1 from pg_collation where collprovider = 'i') then
    create collation cases.merchant_name (provider = icu, locale = 'en-u-ks-level1', deterministic = false);
  else
    create collation cases.merchant_name (provider = libc, locale = 'C');
  end if;
end $$;

-- A page of one merchant's children in name order is one index range (LIMIT 20), not a sort of every sibling.
create index merchants_tenant_parent_name
  on cases.merchants (tenant_id, parent_id, business_name collate cases.merchant_name, id);

-- A MID search by descriptor matches a third of them for a broad term ('online'): ILIKE lowers both sides
-- on every row (UTF-8), so the search compares a lowered copy with LIKE instead (several times cheaper).
alter table cases.descriptors add column descriptor_lc text generated always as (lower(descriptor)) stored;

-- Trigram indexes for the '%term%' searches (tree search by name and alias; MID grid and MID list by
-- MID, alias and descriptor). pg_trgm ships with Postgres (trusted since 13); the embedded PGlite loads no
-- contrib extension, so there the searches scan (small data) and this part is skipped.
do $$
declare
  ns text;
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm unavailable (%): searches without trigram indexes', sqlerrm;
    return;
  end;
  select n.nspname into ns from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm';
  execute format('create index merchants_name_trgm on cases.merchants using gin (business_name %I.gin_trgm_ops)', ns);
  execute format('create index merchants_alias_trgm on cases.merchants using gin (alias %I.gin_trgm_ops)', ns);
  execute format('create index mids_mid_trgm on cases.mids using gin (mid %I.gin_trgm_ops)', ns);
  execute format('create index mids_alias_trgm on cases.mids using gin (alias %I.gin_trgm_ops)', ns);
  execute format('create index descriptors_lc_trgm on cases.descriptors using gin (descriptor_lc %I.gin_trgm_ops)', ns);
end $$;

