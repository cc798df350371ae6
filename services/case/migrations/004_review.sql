-- QC and admin review (spec 2 §2.4, §2.5): who is working on a case (marks),
-- admin review actions with their notes, and ERT records of a case.

-- One mark per case: set when a case is opened for QC / review or an upload is
-- prepared, cleared on release. A mark older than 30 minutes no longer blocks.
create table cases.case_marks (
  case_id bigint primary key references cases.cases (id),
  tenant_id text not null references cases.tenants (id),
  type text not null,
  status smallint not null,
  user_id bigint,
  username text,
  marked_at timestamptz not null default now()
);
create index case_marks_tenant on cases.case_marks (tenant_id, marked_at);

create table cases.case_reviews (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id),
  action_id smallint not null,
  note text,
  user_id bigint,
  username text,
  created_at timestamptz not null default now()
);
create index case_reviews_case on cases.case_reviews (case_id, created_at);

create table cases.erts (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id),
  merchant_id bigint not null references cases.merchants (id),
  content text not null,
  status_id smallint not null default 1,
  is_active boolean not null default true,
  level_id smallint not null default 1,
  type_id smallint not null default 7,
  user_id bigint,
  created_by text,
  created_at timestamptz not null default now()
);
create index erts_case on cases.erts (case_id, created_at, id);
