import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Env, Logger, Queryable } from '@portal/core';
import { unauthorized } from '@portal/core';
import { findUserByUsername, USER_STATUS, type UserRow } from '../users/repository';
import { ensurePemKey } from './keys';
import { AUTH_MESSAGES } from './messages';

/**
 * Single sign-on exchange (POST /users/auth/artego): the tenant's identity
 * provider signs a short-lived JWT naming a portal username; the portal
 * verifies it with the provider's public key (stored per tenant) and signs in
 * the matching federated user.
 *
 * Token: header {alg: EdDSA}; claims iss = provider issuer, aud = provider
 * audience, sub or username = portal username, iat, exp (at most 5 minutes
 * after iat), jti (used once).
 */
const SSO_MAX_AGE = '5m';

export const demoSsoIssuer = (tenant: string) => `https://sso.${tenant}.localhost/demo`;
export const demoSsoAudience = (tenant: string) => `chargeback-portal:${tenant}`;
export const demoSsoKeyFile = (dataDir: string, tenant: string) => join(dataDir, 'keys', `sso-${tenant}.pem`);

interface IdpRow {
  tenant: string;
  issuer: string;
  audience: string;
  algorithm: string;
  public_key_pem: string | null;
}

/**
 * Demo identity providers (seeded without a key) get a key pair outside
 * production: the private key in DATA_DIR/keys/sso-<tenant>.pem for demos and
 * tests to mint tokens, the public key in the provider's row.
 */
export async function ensureDemoSsoKeys(
  db: Queryable,
  env: Pick<Env, 'NODE_ENV' | 'DATA_DIR'>,
  log?: Logger,
): Promise<void> {
  if (env.NODE_ENV === 'production') return;
  const { rows } = await db.query<IdpRow>(
    `select tenant, issuer, audience, algorithm, public_key_pem from users.identity_providers where is_demo`,
  );
  for (const idp of rows) {
    const file = demoSsoKeyFile(env.DATA_DIR, idp.tenant);
    ensurePemKey(file);
    const publicPem = createPublicKey(createPrivateKey(readFileSync(file, 'utf8')))
      .export({ type: 'spki', format: 'pem' })
      .toString();
    if (publicPem !== idp.public_key_pem) {
      await db.query(`update users.identity_providers set public_key_pem = $2 where tenant = $1`, [
        idp.tenant,
        publicPem,
      ]);
      log?.info({ tenant: idp.tenant, file }, 'demo single sign-on key installed');
    }
  }
}

/** Verifies an SSO token of the tenant's provider and answers the federated user it names. */
export async function verifySsoToken(db: Queryable, tenant: string, token: string): Promise<UserRow> {
  const { rows } = await db.query<IdpRow>(
    `select tenant, issuer, audience, algorithm, public_key_pem from users.identity_providers where tenant = $1`,
    [tenant],
  );
  const idp = rows[0];
  if (!idp?.public_key_pem) throw unauthorized(AUTH_MESSAGES.ssoInvalid);
  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(token, createPublicKey(idp.public_key_pem), {
      algorithms: [idp.algorithm],
      issuer: idp.issuer,
      audience: idp.audience,
      maxTokenAge: SSO_MAX_AGE,
      requiredClaims: ['exp', 'iat', 'jti'],
    });
    claims = verified.payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw unauthorized(AUTH_MESSAGES.ssoInvalid);
    throw error;
  }
  const username =
    typeof claims.username === 'string' ? claims.username : typeof claims.sub === 'string' ? claims.sub : '';
  const jti = String(claims.jti).slice(0, 200);
  // Each token is exchanged once: a replayed token is refused.
  const used = await db.query(
    `insert into users.sso_token_uses (tenant, jti, expires_at) values ($1, $2, to_timestamp($3)) on conflict do nothing`,
    [tenant, jti, Number(claims.exp)],
  );
  if (used.rowCount !== 1) throw unauthorized(AUTH_MESSAGES.ssoInvalid);
  const user = username ? await findUserByUsername(db, tenant, username) : undefined;
  if (!user || !user.is_federated || user.status_id !== USER_STATUS.ACTIVE)
    throw unauthorized(AUTH_MESSAGES.ssoNoUser);
  return user;
}

/** Mints a demo SSO token with a provider's private key (tests, demos, scripts/mint-sso-token.mjs). */
export async function mintSsoToken(
  privateKeyPem: string,
  options: {
    tenant: string;
    username: string;
    issuer?: string;
    audience?: string;
    ttlSeconds?: number;
    jti?: string;
  },
): Promise<string> {
  return new SignJWT({ username: options.username })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(options.username)
    .setIssuer(options.issuer ?? demoSsoIssuer(options.tenant))
    .setAudience(options.audience ?? demoSsoAudience(options.tenant))
    .setIssuedAt()
    .setJti(options.jti ?? crypto.randomUUID())
    .setExpirationTime(`${options.ttlSeconds ?? 120}s`)
    .sign(createPrivateKey(privateKeyPem));
}
