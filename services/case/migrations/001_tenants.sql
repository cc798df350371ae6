-- Tenants known to the case data; the tenant id is the config id (config/tenants/<id>.yaml).
create table cases.tenants (
  id text primary key,
  name text not null,
  created_at timestamptz not null default now()
);
