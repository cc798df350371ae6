import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { TokenResponse } from '@portal/contracts';
import type { Env, Queryable } from '@portal/core';
import { newOpaqueToken, sha256 } from './crypto';
import type { SigningKey } from './keys';

export interface TokenUser {
  id: number;
  tenant: string;
  username: string;
  session_version: number;
}

export async function signAccessToken(
  key: SigningKey,
  env: Pick<Env, 'JWT_ISSUER' | 'ACCESS_TOKEN_TTL_SECONDS'>,
  user: TokenUser,
) {
  return new SignJWT({ username: user.username, sv: user.session_version })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setSubject(String(user.id))
    .setAudience(user.tenant)
    .setIssuer(env.JWT_ISSUER)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${env.ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(key.privateKey);
}

export interface IssuedTokens {
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
): Promise<IssuedTokens> {
  const refreshToken = newOpaqueToken();
  await db.query(
    `insert into users.refresh_tokens (tenant, user_id, family_id, token_hash, session_version, expires_at, ip)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7)`,
    [
      user.tenant,
      user.id,
      familyId,
      sha256(refreshToken),
      user.session_version,
      env.REFRESH_TOKEN_TTL_SECONDS,
      ip,
    ],
  );
  const access = await signAccessToken(key, env, user);
  return {
    body: { access_token: access, expires_in: env.ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' },
    refreshToken,
  };
}

export interface RefreshRow {
  id: number;
  tenant: string;
  user_id: number;
  family_id: string;
  session_version: number;
  expired: boolean;
  used_at: string | null;
  revoked_at: string | null;
}

export async function findRefreshToken(db: Queryable, token: string): Promise<RefreshRow | undefined> {
  const { rows } = await db.query<RefreshRow>(
    `select id, tenant, user_id, family_id, session_version, expires_at <= now() as expired, used_at, revoked_at
       from users.refresh_tokens where token_hash = $1`,
    [sha256(token)],
  );
  return rows[0];
}

/** Marks a token used; false when another request used it first (a concurrent reuse). */
export async function markRefreshUsed(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `update users.refresh_tokens set used_at = now() where id = $1 and used_at is null and revoked_at is null`,
    [id],
  );
  return rowCount === 1;
}

export async function revokeFamily(db: Queryable, familyId: string): Promise<void> {
  await db.query(
    `update users.refresh_tokens set revoked_at = now() where family_id = $1 and revoked_at is null`,
    [familyId],
  );
}

/** Ends every session of a user, or every one but the given family. */
export async function revokeUserTokens(db: Queryable, userId: number, exceptFamily?: string): Promise<void> {
  await db.query(
    `update users.refresh_tokens set revoked_at = now()
      where user_id = $1 and revoked_at is null and ($2::uuid is null or family_id <> $2::uuid)`,
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
