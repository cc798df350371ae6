-- Onboarding files and their records, case updater uploads, ERT resolution (issue 17).

create table cases.onboarding_types (id integer primary key, alias text not null unique, name text not null);
insert into cases.onboarding_types values (1, 'merchant', 'Merchant'), (2, 'mid', 'MID');

-- One uploaded CSV. status_id 1 open, 2 finalizing (job queued), 3 finalized.
create table cases.onboarding_files (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  type_id integer not null references cases.onboarding_types (id),
  status_id smallint not null default 1,
  filename text not null,
  s3_key text not null,
  user_id bigint,
  username text not null,
  user_fname text,
  user_lname text,
  rows_in_upload integer not null,
  -- The uploader's signed-context fields, kept so the finalize job creates users as that user.
  finalize_context jsonb,
  job_id uuid,
  message text,
  date_created timestamptz not null default now(),
  date_updated timestamptz not null default now(),
  finalized_date timestamptz
);
create index onboarding_files_tenant_date on cases.onboarding_files (tenant_id, date_created desc, id desc);

-- One CSV row: cells {column name: value}; errors are derived on read and on every change.
-- status_id 1 normal, 2 deleted.
create table cases.onboarding_records (
  id bigserial primary key,
  file_id bigint not null references cases.onboarding_files (id) on delete cascade,
  row_num integer not null,
  status_id smallint not null default 1,
  cells jsonb not null,
  errors jsonb not null default '{}',
  created_id bigint,
  unique (file_id, row_num)
);

-- A case updater upload; result_key names the per-row outcome file once the job has run.
create table cases.updater_uploads (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  user_id bigint,
  username text not null,
  user_fname text,
  user_lname text,
  filename text not null,
  s3_key text not null,
  size integer not null,
  state text not null default 'queued',
  scope_merchant_ids bigint[],
  scope_mids_allowed bigint[],
  scope_mids_excluded bigint[] not null default '{}',
  rows_total integer not null default 0,
  rows_applied integer not null default 0,
  result_key text,
  message text,
  job_id uuid,
  date_created timestamptz not null default now(),
  date_finished timestamptz
);
create index updater_uploads_tenant on cases.updater_uploads (tenant_id, id desc);

alter table cases.erts
  add column resolved_by text,
  add column resolved_user_id bigint,
  add column date_resolved timestamptz,
  add column date_approved timestamptz,
  add column date_archived timestamptz;
create index erts_tenant_created on cases.erts (tenant_id, created_at desc, id desc);

create table cases.ert_statuses (id integer primary key, name text not null);
insert into cases.ert_statuses values (1, 'Open'), (2, 'Approved'), (3, 'Resolved'), (4, 'Archived');
create table cases.ert_levels (id integer primary key, name text not null);
insert into cases.ert_levels values (1, 'Low'), (2, 'Medium'), (3, 'High');
alter table cases.erts add column resolve_key text;
