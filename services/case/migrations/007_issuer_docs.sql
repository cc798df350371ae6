-- Issuer documents of a case (spec 2 §3 case.issuer_docs (id, date_created),
-- §7 GET /docs/issuer-doc/{caseId}/{docId}). The case service owns which
-- documents a case has (ids and dates, shown in the case list's issuer-doc
-- column for merchants with feature 1); the docs service keeps the files under
-- the same ids (docs.issuer_docs) and answers their download links.
create table cases.issuer_docs (
  id bigint primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id) on delete cascade,
  date_created timestamptz not null default now()
);
create index issuer_docs_case on cases.issuer_docs (case_id, date_created, id);
