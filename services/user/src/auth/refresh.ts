import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  INVALIDATE_CHANNEL,
  revokedSessionKey,
  SESSION_INVALIDATION_KIND,
  type TokenResponse,
} from '@portal/contracts';
import { unauthorized } from '@portal/core';
import { clientIp, type UserServiceState } from '../lib/context';
import { findUserById, USER_STATUS } from '../users/repository';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './cookie';
import { AUTH_MESSAGES } from './messages';
import { findRefreshToken, revokeFamily, rotateRefreshToken } from './tokens';

/**
 * Ends a session: its refresh family is revoked (Postgres) and its access
 * tokens (claim `sid`) are revoked at the gateways within a second: a Redis
 * marker (TTL = access-token lifetime, read by gateways that missed the
 * message) plus a message on the invalidation channel (every gateway adds the
 * sid to its in-process set). Redis being down loses only the last two: the
 * access tokens then die at their expiry (at most ACCESS_TOKEN_TTL_SECONDS),
 * as before; the cache adapter logs and swallows the failure.
 */
async function endSession(app: FastifyInstance, tenant: string, familyId: string): Promise<void> {
  const { db, cache, env } = app.deps;
  await revokeFamily(db, familyId);
  await cache.set(revokedSessionKey(tenant, familyId), '1', env.ACCESS_TOKEN_TTL_SECONDS + 60);
  await cache.publish(
    INVALIDATE_CHANNEL,
    JSON.stringify({ tenant, kind: SESSION_INVALIDATION_KIND, id: familyId }),
  );
}

/**
 * Rotates the refresh token: the presented one is used up and a new one of the
 * same family is issued. A token presented again within REFRESH_GRACE_SECONDS
 * of its first use (two tabs refreshing at once: both responses set the
 * cookie, whichever lands last must work) gets a sibling of the same family;
 * using either supersedes the other. Presenting a used token after the grace
 * period, or a revoked one, means it was stolen (or replayed): the whole
 * family is revoked, ending that session.
 */
export async function refresh(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
): Promise<TokenResponse> {
  const { db, env } = app.deps;
  const deny = () => {
    clearRefreshCookie(reply, env);
    return unauthorized(AUTH_MESSAGES.sessionExpired);
  };
  const reuse = async (row: { user_id: number; family_id: string }) => {
    await endSession(app, tenant, row.family_id);
    request.log.warn(
      { user_id: row.user_id, family: row.family_id },
      'refresh token reuse: session family revoked',
    );
    return deny();
  };
  const token = readRefreshCookie(request);
  if (!token) throw deny();
  const row = await findRefreshToken(db, token);
  // A token of another tenant is treated as unknown: it proves nothing here.
  if (!row || row.tenant !== tenant) throw deny();
  if (row.revoked_at) throw await reuse(row);
  if (row.expired) throw deny();
  const user = await findUserById(db, tenant, row.user_id);
  if (!user || user.status_id !== USER_STATUS.ACTIVE || user.session_version !== row.session_version) {
    await revokeFamily(db, row.family_id);
    throw deny();
  }
  // One transaction (retried once on a deadlock or serialization failure); Redis and logging stay outside.
  const issued = await rotateRefreshToken(db, state.key, env, user, clientIp(request), row);
  if (!issued) throw await reuse(row);
  setRefreshCookie(reply, env, issued.refreshToken);
  return issued.body;
}

/** Revokes the session of the cookie (its family and its access tokens); always 204. */
export async function signOut(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
) {
  const token = readRefreshCookie(request);
  if (token) {
    const row = await findRefreshToken(app.deps.db, token);
    if (row && row.tenant === tenant) await endSession(app, tenant, row.family_id);
  }
  clearRefreshCookie(reply, app.deps.env);
}
