import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { InternalContext, type UserProfile } from '@portal/contracts';
import type { Env } from './env';

/**
 * The gateway's signed internal context: base64url(JSON) + '.' + HMAC-SHA256.
 * Services trust nothing else about the caller.
 */
export const CONTEXT_TTL_SECONDS = 60;

export function signContext(context: Omit<InternalContext, 'exp'>, secret: string, now = Date.now()): string {
  const body: InternalContext = { ...context, exp: Math.floor(now / 1000) + CONTEXT_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

export type ContextCheck = { ok: true; context: InternalContext } | { ok: false; reason: string };

export function verifyContext(header: string | undefined, secret: string, now = Date.now()): ContextCheck {
  if (!header) return { ok: false, reason: 'missing internal context' };
  const dot = header.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed internal context' };
  const payload = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1));
  const expected = Buffer.from(mac(payload, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad internal context signature' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed internal context' };
  }
  if (!Value.Check(InternalContext, parsed)) return { ok: false, reason: 'invalid internal context' };
  if (parsed.exp * 1000 < now) return { ok: false, reason: 'expired internal context' };
  return { ok: true, context: parsed };
}

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** The fields of a signed-in user a context carries. */
type ContextUser = Pick<
  UserProfile,
  'id' | 'username' | 'roles' | 'merchant' | 'is_read_only' | 'mids_allowed' | 'mids_excluded'
>;

/**
 * The user part of a context (who acts for whom, with which scope), in the order the signed JSON
 * carries it: the gateway's signer serialises this once per cached profile and appends the rest.
 */
export function userPart(tenant: string, user: ContextUser, actorId: number) {
  return {
    tenant,
    user_id: user.id,
    actor_id: actorId,
    username: user.username,
    roles: user.roles,
    merchant_id: user.merchant.id,
    read_only: user.is_read_only,
    mids_allowed: user.mids_allowed,
    mids_excluded: user.mids_excluded,
  };
}

/** The context of a signed-in user's call (the effective user, the actor who may be impersonating). */
export function userContext(
  tenant: string,
  user: ContextUser,
  actorId: number,
  requestId: string,
): Omit<InternalContext, 'exp'> {
  return { ...userPart(tenant, user, actorId), request_id: requestId, kind: 'user' };
}

/** A context with no user: the public auth calls ('public') and service-to-service calls ('system'). */
export function contextWithoutUser(
  tenant: string,
  requestId: string,
  kind: 'public' | 'system',
): Omit<InternalContext, 'exp'> {
  return {
    tenant,
    user_id: null,
    actor_id: null,
    username: null,
    roles: [],
    merchant_id: null,
    read_only: false,
    mids_allowed: [],
    mids_excluded: [],
    request_id: requestId,
    kind,
  };
}

/** A context for calls one service makes to another on its own behalf. */
export function systemContext(tenant: string, requestId: string): Omit<InternalContext, 'exp'> {
  return contextWithoutUser(tenant, requestId, 'system');
}

/**
 * INTERNAL_CONTEXT_SECRET, or in development a random secret generated once
 * into DATA_DIR (never committed) and shared by the local processes.
 */
export function resolveContextSecret(
  env: Pick<Env, 'INTERNAL_CONTEXT_SECRET' | 'DATA_DIR' | 'NODE_ENV'>,
): string {
  if (env.INTERNAL_CONTEXT_SECRET) return env.INTERNAL_CONTEXT_SECRET;
  if (env.NODE_ENV === 'production') throw new Error('INTERNAL_CONTEXT_SECRET must be set in production');
  const file = join(env.DATA_DIR, 'keys', 'internal-context.secret');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}
