-- CE 3.0 remedy submissions (spec 2 §2.8, §3 'Remedy submission body', §7 POST /cm/cases/{id}/ce).
-- One live submission per case: 'attaching' while the CE document is handed to
-- the docs service, 'submitted' once it is attached as a representment version.
-- A submission whose attachment failed is deleted (the request answers the error),
-- so a refused or failed remedy leaves nothing behind and the case stays eligible.
create table cases.remedy_submissions (
  id bigserial primary key,
  tenant_id text not null,
  case_id bigint not null references cases.cases (id),
  state text not null default 'attaching' check (state in ('attaching', 'submitted')),
  dl jsonb not null,
  doc jsonb not null,
  -- the generated CE document and where it went (docs.representment_versions of the case)
  document_sha256 text not null,
  document_pages integer not null,
  document_size integer not null,
  representment_version integer,
  compile_job_id text,
  submitted_by text,
  submitted_by_id bigint,
  actor_id bigint,
  request_id text,
  created_at timestamptz not null default now(),
  submitted_at timestamptz
);
create unique index remedy_submissions_case on cases.remedy_submissions (tenant_id, case_id);
