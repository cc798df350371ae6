import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { TokenResponse } from '@portal/contracts';
import type { Db, Env, Queryable } from '@portal/core';
import { newOpaqueToken, sha256 } from './crypto';
import type { SigningKey } from './keys';

interface TokenUser {
  id: number;
  tenant: string;
  username: string;
  session_version: number;
}

/**
 * Grace period of a rotated refresh token: two tabs refreshing at once (or a
 * response lost on the way) present the same token twice; within this many
 * seconds of its first use it gets a sibling of the same family instead of
 * ending the session. A reuse later is treated as theft: the family is revoked.
 */
export const REFRESH_GRACE_SECONDS = 20;
/** At most this many siblings per used token within the grace period. */
export const REFRESH_GRACE_MAX_SIBLINGS = 5;

/** A refresh token value: `<familyId>.<secret>` (see REFRESH_FAMILY in contracts). */
function newRefreshToken(familyId: string): string {
  return `${familyId}.${newOpaqueToken()}`;
}

/** The access token; `sid` is the session (refresh family) so sign-out can revoke it at the gateway. */
async function signAccessToken(
  key: SigningKey,
  env: Pick<Env, 'JWT_ISSUER' | 'ACCESS_TOKEN_TTL_SECONDS'>,
  user: TokenUser,
  sid?: string,
) {
  return new SignJWT({ username: user.username, sv: user.session_version, ...(sid ? { sid } : {}) })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setSubject(String(user.id))
    .setAudience(user.tenant)
    .setIssuer(env.JWT_ISSUER)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${env.ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(key.privateKey);
}

interface IssuedTokens {
  body: TokenResponse;
  refreshToken: string;
}

/** Issues an access token and a refresh token of a new (or the given) family. */
export async function issueTokens(
  db: Queryable,
  key: SigningKey,
  env: Pick<Env, 'JWT_ISSUER' | 'ACCESS_TOKEN_TTL_SECONDS' | 'REFRESH_TOKEN_TTL_SECONDS'>,
  user: TokenUser,
  ip: string,
  familyId: string = randomUUID(),
  parentId: number | null = null,
): Promise<IssuedTokens> {
  const refreshToken = newRefreshToken(familyId);
  await db.query(
    `insert into users.refresh_tokens (tenant, user_id, family_id, token_hash, session_version, expires_at, ip, parent_id)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7, $8)`,
    [
      user.tenant,
      user.id,
      familyId,
      sha256(refreshToken),
      user.session_version,
      env.REFRESH_TOKEN_TTL_SECONDS,
      ip,
      parentId,
    ],
  );
  const access = await signAccessToken(key, env, user, familyId);
  return {
    body: { access_token: access, expires_in: env.ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' },
    refreshToken,
  };
}

interface RefreshRow {
  id: number;
  tenant: string;
  user_id: number;
  family_id: string;
  session_version: number;
  expired: boolean;
  used_at: string | null;
  revoked_at: string | null;
  parent_id: number | null;
}

export async function findRefreshToken(db: Queryable, token: string): Promise<RefreshRow | undefined> {
  const { rows } = await db.query<RefreshRow>(
    `select id, tenant, user_id, family_id, session_version, expires_at <= now() as expired, used_at, revoked_at, parent_id
       from users.refresh_tokens where token_hash = $1`,
    [sha256(token)],
  );
  const row = rows[0];
  // The family handle in clear must be the token's own family (tokens of before the handle have none).
  const dot = token.indexOf('.');
  if (row && dot !== -1 && token.slice(0, dot) !== row.family_id) return undefined;
  return row;
}

/**
 * Row locks on refresh tokens are always taken in ascending id order (a
 * parent's id is below its children's), so no two transactions can wait on
 * each other. Before this, refreshes of sibling tokens (two tabs presenting
 * the sibling cookies of a grace-period refresh) each updated their own row
 * first, then their siblings' in markRefreshUsed: A held C1 and waited for C2,
 * B held C2 and waited for C1, and Postgres aborted one with a deadlock.
 *
 * lockRotation locks, in one statement: the token's parent (the token the
 * siblings were issued for), the token and its siblings. Every refresh of a
 * sibling group thus queues on the parent row first (a parent already purged
 * by housekeeping: on the group itself, same order), and the sibling set
 * cannot grow meanwhile (new siblings are issued only under the parent's lock).
 * Every later statement of the rotation touches only rows locked here, or the
 * new row it inserts.
 */
async function lockRotation(db: Queryable, row: Pick<RefreshRow, 'id' | 'parent_id'>): Promise<void> {
  await db.query(
    `select id from users.refresh_tokens where id = $1 or id = $2 or parent_id = $2 order by id for update`,
    [row.id, row.parent_id],
  );
}

/**
 * Marks a token used; false when another request used it first (a concurrent
 * reuse). Its unused siblings (issued in the grace period for the same
 * parent) are superseded: only the child that is used stays in the chain.
 * Call under lockRotation.
 */
export async function markRefreshUsed(
  db: Queryable,
  row: Pick<RefreshRow, 'id' | 'parent_id'>,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update users.refresh_tokens set used_at = now() where id = $1 and used_at is null and revoked_at is null`,
    [row.id],
  );
  if (rowCount !== 1) return false;
  if (row.parent_id !== null)
    await db.query(
      `update users.refresh_tokens set used_at = now() where parent_id = $1 and id <> $2 and used_at is null`,
      [row.parent_id, row.id],
    );
  return true;
}

/**
 * True when a used token may still get a sibling: used within the grace
 * period, its family not revoked, fewer than REFRESH_GRACE_MAX_SIBLINGS
 * children. Locks the token row so concurrent claims count one by one
 * (already held under lockRotation).
 */
async function claimGrace(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `select (t.used_at > now() - make_interval(secs => $2) and t.revoked_at is null and t.expires_at > now()
             and (select count(*) from users.refresh_tokens c where c.parent_id = t.id) < $3) as ok
       from users.refresh_tokens t where t.id = $1 for update`,
    [id, REFRESH_GRACE_SECONDS, REFRESH_GRACE_MAX_SIBLINGS],
  );
  return rows[0]?.ok === true;
}

/** SQLSTATEs of a transaction Postgres aborted that may simply run again: deadlock_detected, serialization_failure. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

function isRetryableTxError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/**
 * Runs fn in a transaction, once more when Postgres aborted it for a deadlock
 * or a serialization failure (the lock order makes a deadlock of the rotation
 * unexpected; the retry is the safety net). fn must have no side effect
 * outside the database: it may run twice.
 */
export async function transactionWithRetry<T>(
  db: Pick<Db, 'transaction'>,
  fn: (tx: Queryable) => Promise<T>,
  retries = 1,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (error) {
      if (attempt >= retries || !isRetryableTxError(error)) throw error;
    }
  }
}

/**
 * One rotation of a presented refresh token, in one transaction: the first
 * use marks it used (superseding its unused siblings) and issues its child;
 * a token used already (by a concurrent request, or earlier) gets a sibling
 * while the grace period lasts. null: no grace (reuse, or a revoked family):
 * the caller revokes the family. No network call happens inside.
 */
export async function rotateRefreshToken(
  db: Pick<Db, 'transaction'>,
  key: SigningKey,
  env: Pick<Env, 'JWT_ISSUER' | 'ACCESS_TOKEN_TTL_SECONDS' | 'REFRESH_TOKEN_TTL_SECONDS'>,
  user: TokenUser,
  ip: string,
  row: Pick<RefreshRow, 'id' | 'parent_id' | 'family_id' | 'used_at'>,
): Promise<IssuedTokens | null> {
  return transactionWithRetry(db, async (tx) => {
    await lockRotation(tx, row);
    const fresh = !row.used_at && (await markRefreshUsed(tx, row));
    if (!fresh && !(await claimGrace(tx, row.id))) return null;
    return issueTokens(tx, key, env, user, ip, row.family_id, row.id);
  });
}

/** Revokes a session family; its rows are locked in ascending id order, as a rotation locks them. */
export async function revokeFamily(db: Queryable, familyId: string): Promise<void> {
  await db.query(
    `update users.refresh_tokens set revoked_at = now()
      where id in (select id from users.refresh_tokens
                    where family_id = $1 and revoked_at is null order by id for update)`,
    [familyId],
  );
}

/** Ends every session of a user, or every one but the given family (rows locked in ascending id order). */
export async function revokeUserTokens(db: Queryable, userId: number, exceptFamily?: string): Promise<void> {
  await db.query(
    `update users.refresh_tokens set revoked_at = now()
      where id in (select id from users.refresh_tokens
                    where user_id = $1 and revoked_at is null and ($2::uuid is null or family_id <> $2::uuid)
                    order by id for update)`,
    [userId, exceptFamily ?? null],
  );
}

/** The session family of a refresh token, when it belongs to the given user of the tenant. */
export async function familyOf(
  db: Queryable,
  token: string | undefined,
  tenant: string,
  userId: number,
): Promise<string | undefined> {
  if (!token) return undefined;
  const row = await findRefreshToken(db, token);
  return row && row.tenant === tenant && row.user_id === userId ? row.family_id : undefined;
}
