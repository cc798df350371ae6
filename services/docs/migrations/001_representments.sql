-- Representment documents (spec 2 §2.4, §7 'Documents'). The docs service owns
-- the schema: no foreign keys into cases.* (another service's tables); the
-- case service answers whether a case is in the caller's scope.

-- The bytes of stored files (the Postgres DocumentStore): one row per key.
create table docs.objects (
  key text primary key,
  tenant_id text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  content bytea not null,
  created_at timestamptz not null default now()
);

-- One row per uploaded representment of a case; the newest one is the case's
-- document. Archiving keeps the row (who, when, comments) and drops the file.
create table docs.representments (
  id bigserial primary key,
  tenant_id text not null,
  case_id bigint not null,
  merchant_id bigint,
  file_key text not null,
  filename text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  case_comments text,
  created_by text,
  date_created timestamptz not null default now(),
  is_archived boolean not null default false,
  archived_at timestamptz,
  unique (tenant_id, file_key)
);
create index representments_case on docs.representments (tenant_id, case_id, date_created desc, id desc);
