-- Sessions and sign-in throttling (issues 20.6, 20.7).
-- One DO block = one statement: PGlite runs a migration through the extended protocol, which takes a single command.
do $migration$
begin

-- Rotation tree: the token a refresh token was issued for. Within the grace period a just-used
-- token may get a sibling (two tabs refreshing at once); using one child supersedes its siblings.
alter table users.refresh_tokens add column parent_id bigint;
create index refresh_tokens_parent on users.refresh_tokens (parent_id) where parent_id is not null;

-- The sign-in throttle is per username AND client address: someone else's failures
-- (from another address) never lock the owner out. ip '' = rows of before this migration.
alter table users.login_throttle add column ip text not null default '';
alter table users.login_throttle drop constraint login_throttle_pkey;
alter table users.login_throttle add primary key (tenant, username_key, ip);

-- Per-address cap across usernames (password spraying from one address).
create table users.login_throttle_addr (
  tenant text not null,
  ip text not null,
  failures integer not null default 0,
  locked_until timestamptz,
  updated_at timestamptz not null default now(),
  primary key (tenant, ip)
);

-- When the owner was last told that sign-in to their account was locked for an address:
-- one mail per lock, and at most one an hour whatever the number of attacking addresses.
create table users.lock_notices (
  tenant text not null,
  username_key text not null,
  sent_at timestamptz not null default now(),
  primary key (tenant, username_key)
);
end
$migration$;
