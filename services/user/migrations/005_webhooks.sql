-- Signed webhooks (design §11, issue 19): endpoints registered by merchant and partner admins, and
-- one delivery row per (endpoint, event) with its attempts, for the deliveries grid and redeliver.
do $migration$
begin

create table users.webhook_endpoints (
  id bigint generated always as identity primary key,
  tenant text not null,
  -- Events of this merchant and of every merchant below it are delivered (the owner's subtree).
  merchant_id bigint not null,
  url text not null,
  description text not null default '',
  events text[] not null,
  is_active boolean not null default true,
  -- AES-256-GCM under a key derived from the internal context secret; shown in clear once, at registration.
  secret_enc text not null,
  secret_hint text not null,
  created_by bigint references users.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index webhook_endpoints_tenant_merchant on users.webhook_endpoints (tenant, merchant_id) where deleted_at is null;

create table users.webhook_deliveries (
  id bigint generated always as identity primary key,
  tenant text not null,
  endpoint_id bigint not null references users.webhook_endpoints (id) on delete cascade,
  event_id uuid not null,
  event_type text not null,
  -- The exact body sent (signed anew with a fresh timestamp on each attempt).
  payload jsonb not null,
  state text not null default 'queued' check (state in ('queued', 'retrying', 'succeeded', 'failed')),
  attempts integer not null default 0,
  response_code integer,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_endpoint on users.webhook_deliveries (endpoint_id, created_at desc, id desc);

end
$migration$;
