-- Case comments (spec 2 §2.3 Add Comment, issue 12). The case row's `comments`
-- column keeps the newest comment's text, so the lists read it without a join.
create table cases.case_comments (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id),
  user_id bigint,
  username text,
  -- Set while impersonating ('Login As'): the signed-in admin who wrote it.
  actor_id bigint,
  text text not null check (length(text) between 1 and 2000),
  created_at timestamptz not null default now()
);
create index case_comments_case on cases.case_comments (case_id, created_at desc, id desc);
