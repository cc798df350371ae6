-- Bulk close (auto-accept) and auto-refund rule jobs (spec 2 §2.9, §3, §4, §5).
-- A submitted job is 'pending' with the preview count; confirming queues the
-- background job ('confirmed' = scheduled, no end date yet), which runs in
-- batches ('running') and ends 'done' with date_run_end and records_num.
-- Cancel discards a pending job. The scope of the submitting user is kept on
-- the row so the background run touches exactly what the preview counted.
create table cases.bulk_jobs (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  kind text not null check (kind in ('auto_accept', 'auto_refund')),
  state text not null check (state in ('pending', 'confirmed', 'running', 'done', 'failed', 'cancelled')),
  -- The merchant switcher's choice (null: the user's whole scope).
  merchant_id bigint references cases.merchants (id),
  scope_merchant_ids bigint[],
  scope_mids_allowed bigint[],
  scope_mids_excluded bigint[] not null default '{}',
  user_id bigint,
  username text,
  amt_from numeric(12, 2) not null,
  amt_to numeric(12, 2) not null,
  currency_id integer not null references cases.currencies (id),
  -- auto_accept
  cycle_id integer references cases.cycles (id),
  reason_code_id integer references cases.reason_codes (id),
  -- auto_refund
  source_id integer references cases.sources (id),
  card_type_id integer references cases.card_types (id),
  mid_descriptor_id bigint references cases.alert_descriptors (id),
  preview_num integer not null,
  records_num integer not null default 0,
  date_created timestamptz not null default now(),
  date_confirmed timestamptz,
  date_run_end timestamptz,
  job_id uuid,
  message text
);
create index bulk_jobs_tenant_kind on cases.bulk_jobs (tenant_id, kind, id desc);
-- One scheduled (confirmed or running) job per tenant, kind and merchant at a time.
create unique index bulk_jobs_one_scheduled on cases.bulk_jobs (tenant_id, kind, coalesce(merchant_id, 0))
  where state in ('confirmed', 'running');
