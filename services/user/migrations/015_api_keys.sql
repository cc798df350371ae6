-- Merchant API keys (issue 35.1): a key acts for its merchant (and the subtree) with its scopes, never
-- with more than its creator holds at each call. Only the SHA-256 of the whole key is kept (a 256-bit
-- random secret needs no slow password hash); the key is shown once, then its prefix and last four.
create table if not exists users.api_keys (
  tenant text not null,
  -- The key id, visible in the key itself (`cbp_live_<id>_<secret>`).
  id text not null check (id ~ '^[a-z0-9]{8}$'),
  merchant_id bigint not null,
  name text not null,
  scopes text[] not null,
  secret_sha256 bytea not null,
  last_four text not null,
  created_at timestamptz not null default now(),
  created_by bigint not null,
  expires_at timestamptz,
  revoked_at timestamptz,
  revoked_by bigint,
  last_used_at timestamptz,
  last_used_ip text,
  -- Rotation: the new key names the old one; the old one stays valid until grace_until.
  rotated_from text,
  grace_until timestamptz,
  primary key (tenant, id)
);
create index if not exists api_keys_merchant on users.api_keys (tenant, merchant_id, created_at desc);

-- Calls made with a key are audited with its id (actor_kind 'api_key'); user calls stay 'user'.
alter table users.audit_log
  add column if not exists actor_kind text not null default 'user',
  add column if not exists api_key_id text;
create index if not exists audit_log_api_key on users.audit_log (tenant, api_key_id, created_at desc)
  where api_key_id is not null;
