-- SAML 2.0 sign-in (issue 16). Shared by every replica: nothing of a sign-in lives in process memory.

-- AuthnRequests sent, until answered or expired: the InResponseTo of a response must name one (used once).
create table users.saml_requests (
  tenant text not null,
  request_id text not null,
  -- the ACS URL the request named: the response must come back to the same one
  acs_url text not null,
  return_to text not null,
  expires_at timestamptz not null,
  primary key (tenant, request_id)
);

-- Assertion ids seen, until the assertion's own expiry: a replayed assertion is refused.
create table users.saml_assertion_uses (
  tenant text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (tenant, assertion_id)
);

-- One-time codes the ACS hands to the web app (hashed), exchanged once for the normal session.
create table users.saml_codes (
  code_hash text primary key,
  tenant text not null,
  user_id bigint not null references users.users (id) on delete cascade,
  return_to text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index saml_codes_expires on users.saml_codes (expires_at);
