-- Uploaded representments (spec 2 §2.6, §4 'Upload representment', §7).
-- Every upload is a new version of the case's representment: its documents in
-- order (uploaded files and templates) with their provenance, then the one
-- compiled PDF the compile job builds. Nothing is overwritten: a re-upload
-- adds a version, and the newest version is the case's document.
create table docs.representment_versions (
  id bigserial primary key,
  tenant_id text not null,
  case_id bigint not null,
  merchant_id bigint,
  version integer not null check (version >= 1),
  origin smallint not null,
  qc_review boolean not null,
  is_reupload boolean not null,
  comment text,
  uploaded_by text,
  uploaded_by_id bigint,
  uploaded_at timestamptz not null default now(),
  -- compiling -> compiled (or failed after the last retry)
  state text not null default 'compiling' check (state in ('compiling', 'compiled', 'failed')),
  compile_job_id uuid,
  compiled_key text,
  compiled_size integer,
  compiled_pages integer,
  compiled_sha256 text,
  compiled_at timestamptz,
  -- transport (card network submission), recorded by the transport job
  submission_id text,
  submitted_at timestamptz,
  unique (tenant_id, case_id, version)
);
create index representment_versions_case on docs.representment_versions (tenant_id, case_id, version desc);

create table docs.representment_documents (
  id bigserial primary key,
  version_id bigint not null references docs.representment_versions (id),
  tenant_id text not null,
  order_num integer not null,
  kind text not null check (kind in ('file', 'template')),
  template_id bigint,
  s3_key text not null,
  filename text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  pages integer not null check (pages >= 1),
  sha256 text not null,
  uploaded_by text,
  uploaded_at timestamptz not null default now(),
  unique (version_id, order_num)
);
-- A stored upload belongs to one version only (a key is never reused).
create unique index representment_documents_key on docs.representment_documents (tenant_id, s3_key)
  where kind = 'file';

-- Upload forms issued for a case (GET /docs/representment/upload-link): a key
-- named in POST /docs/representment must have been issued for that case, in
-- that tenant. Object keys carry no case id, so this is what ties them.
create table docs.representment_upload_links (
  tenant_id text not null,
  s3_key text not null,
  case_id bigint not null,
  user_id bigint,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (tenant_id, s3_key)
);
