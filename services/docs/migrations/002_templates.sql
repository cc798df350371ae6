-- Document templates (spec 2 §3 'document template', §7 'Documents: templates').
-- One row per template a merchant keeps in its library; deleting sets
-- deleted_at (soft delete). s3_key names the object in the object store
-- (tenant-prefixed key). pages is counted by the server from the stored bytes.
create table docs.templates (
  id bigserial primary key,
  tenant_id text not null,
  merchant_id bigint not null,
  name text not null,
  file_name text not null,
  s3_key text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  pages integer not null check (pages >= 1),
  template_type integer not null default 1,
  document_type_id integer,
  mid_ids bigint[] not null default '{}',
  created_by text,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index templates_merchant on docs.templates (tenant_id, merchant_id, created_at desc, id desc)
  where deleted_at is null;

-- Issuer documents (spec 2 §7 GET /docs/issuer-doc/{caseId}/{docId}): the
-- files of the case service's cases.issuer_docs rows, under the same ids (the
-- case service says which documents a case has; the docs service keeps the
-- files). file_key names the object in the object store.
create table docs.issuer_docs (
  id bigint primary key,
  tenant_id text not null,
  case_id bigint not null,
  file_key text not null,
  filename text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  created_at timestamptz not null default now()
);
create index issuer_docs_case on docs.issuer_docs (tenant_id, case_id);
