import type { Queryable } from '@portal/core';
import { newOpaqueToken, sha256 } from '../crypto';

/**
 * What a SAML sign-in keeps between its steps, in Postgres (gateways and
 * services scale out: no step may rely on process memory).
 */
/** An AuthnRequest is answered within this many seconds or not at all. */
const REQUEST_TTL_SECONDS = 10 * 60;
/** The ACS's one-time code is exchanged within this many seconds. */
const CODE_TTL_SECONDS = 60;

export async function saveRequest(
  db: Queryable,
  r: { tenant: string; requestId: string; acsUrl: string; returnTo: string },
): Promise<void> {
  await db.query(
    `insert into users.saml_requests (tenant, request_id, acs_url, return_to, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [r.tenant, r.requestId, r.acsUrl, r.returnTo, REQUEST_TTL_SECONDS],
  );
}

/** Takes the pending request (once: a second answer to it finds nothing). */
export async function consumeRequest(
  db: Queryable,
  tenant: string,
  requestId: string,
): Promise<{ acs_url: string; return_to: string } | undefined> {
  const { rows } = await db.query<{ acs_url: string; return_to: string }>(
    `delete from users.saml_requests where tenant = $1 and request_id = $2 and expires_at > now()
     returning acs_url, return_to`,
    [tenant, requestId.slice(0, 200)],
  );
  return rows[0];
}

/** Records an assertion id until its expiry; false when it was seen before (a replay). */
export async function claimAssertionId(
  db: Queryable,
  tenant: string,
  assertionId: string,
  expiresAt: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into users.saml_assertion_uses (tenant, assertion_id, expires_at) values ($1, $2, $3)
     on conflict do nothing`,
    [tenant, assertionId.slice(0, 200), expiresAt],
  );
  return rowCount === 1;
}

export async function createCode(
  db: Queryable,
  c: { tenant: string; userId: number; returnTo: string },
): Promise<string> {
  const code = newOpaqueToken();
  await db.query(
    `insert into users.saml_codes (code_hash, tenant, user_id, return_to, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [sha256(code), c.tenant, c.userId, c.returnTo, CODE_TTL_SECONDS],
  );
  return code;
}

/** Uses a code up; undefined when unknown, of another tenant, used or expired. */
export async function consumeCode(
  db: Queryable,
  tenant: string,
  code: string,
): Promise<{ user_id: number; return_to: string } | undefined> {
  const { rows } = await db.query<{ user_id: number; return_to: string }>(
    `update users.saml_codes set used_at = now()
      where code_hash = $1 and tenant = $2 and used_at is null and expires_at > now()
      returning user_id::int as user_id, return_to`,
    [sha256(code), tenant],
  );
  return rows[0];
}

/** Housekeeping: what has expired (called with the other purges). */
export async function purgeSaml(db: Queryable): Promise<void> {
  await db.query(`delete from users.saml_requests where expires_at < now()`);
  await db.query(`delete from users.saml_assertion_uses where expires_at < now()`);
  await db.query(`delete from users.saml_codes where expires_at < now() - interval '1 day'`);
}
