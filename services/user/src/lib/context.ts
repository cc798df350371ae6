import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INVALIDATE_CHANNEL, type InternalContext, type InvalidationMessage } from '@portal/contracts';
import {
  CallInTransactionError,
  createMailer,
  forbidden,
  HttpError,
  ServiceClient,
  unauthorized,
  type Mailer,
  type Queryable,
} from '@portal/core';
import { loadSigningKey, type SigningKey } from '../auth/keys';

/** What the user service's routes share: built once per app. */
export interface UserServiceState {
  key: SigningKey;
  mailer: Mailer;
  caseClient: ServiceClient;
}

export async function createState(app: FastifyInstance): Promise<UserServiceState> {
  const { env, contextSecret, log } = app.deps;
  return {
    key: await loadSigningKey(env),
    mailer: createMailer(env, log),
    caseClient: new ServiceClient(env.CASE_SERVICE_URL, contextSecret, 5000),
  };
}

/** The client address: the gateway is the only party that sets x-client-ip (it strips it from clients). */
export function clientIp(request: FastifyRequest): string {
  const header = request.headers['x-client-ip'];
  const value = Array.isArray(header) ? header[0] : header;
  return (value && value.trim().slice(0, 64)) || request.socket.remoteAddress || 'unknown';
}

export function userAgent(request: FastifyRequest): string | null {
  return request.headers['user-agent']?.slice(0, 256) ?? null;
}

/** The auth calls come as 'public' from the gateway (tenant set, no user); system calls are accepted for tests and tools. */
export function requirePublic(request: FastifyRequest): InternalContext {
  const ctx = request.ctx;
  if (ctx.kind === 'user') throw forbidden('This call is for signed-out clients.');
  return ctx;
}

export type UserContext = InternalContext & { user_id: number; actor_id: number };

/** A signed-in call: the effective user (user_id) and who acts (actor_id, differs while impersonating). */
export function requireUser(request: FastifyRequest): UserContext {
  const ctx = request.ctx;
  if (ctx.kind !== 'user' || ctx.user_id === null) throw unauthorized();
  return { ...ctx, user_id: ctx.user_id, actor_id: ctx.actor_id ?? ctx.user_id };
}

export function isImpersonating(ctx: InternalContext): boolean {
  return ctx.actor_id !== null && ctx.user_id !== null && ctx.actor_id !== ctx.user_id;
}

/** Refuses a call the real person must make themselves (password, email of one's own account). */
export function refuseWhileImpersonating(ctx: InternalContext): void {
  if (isImpersonating(ctx)) throw forbidden('This is not allowed while acting as another user.');
}

/**
 * Tells every gateway that a user's cached profile is stale. Call after commit;
 * a failed publish is logged by the cache and the cached profile expires by TTL.
 */
export async function publishUserChange(
  app: FastifyInstance,
  tenant: string,
  ...userIds: number[]
): Promise<void> {
  for (const id of userIds) {
    const message: InvalidationMessage = { tenant, kind: 'user', id };
    await app.deps.cache.publish(INVALIDATE_CHANNEL, JSON.stringify(message));
  }
}

export interface AuditEntry {
  action: string;
  targetUserId?: number | null;
  detail?: unknown;
}

/** Keys whose values never reach the audit log (a password sent with a user edit, a token, a secret). */
const SECRET_KEY = /pass|secret|token|code/i;

/** The detail as recorded: secret-looking fields replaced by '[redacted]', at any depth. */
function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redactSecrets(v)]),
  );
}

/** One audit row; made inside the write's transaction so the two commit together. */
export async function audit(db: Queryable, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  const ctx = request.ctx;
  await db.query(
    `insert into users.audit_log (tenant, actor_id, user_id, action, method, path, target_user_id, detail, request_id, ip)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      ctx.tenant,
      ctx.actor_id,
      ctx.user_id,
      entry.action,
      request.method,
      request.url.split('?')[0],
      entry.targetUserId ?? null,
      entry.detail === undefined ? null : JSON.stringify(redactSecrets(entry.detail)),
      ctx.request_id,
      clientIp(request),
    ],
  );
}

/** Turns an unexpected upstream failure into a clear 502 (never a wrong answer). */
export function upstreamError(message: string, error: unknown): HttpError {
  if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
  if (error instanceof HttpError && error.statusCode < 500 && error.statusCode !== 404) return error;
  return new HttpError(502, message);
}
