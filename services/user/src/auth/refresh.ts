import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenResponse } from '@portal/contracts';
import { unauthorized } from '@portal/core';
import { clientIp, type UserServiceState } from '../lib/context';
import { findUserById, USER_STATUS } from '../users/repository';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './cookie';
import { AUTH_MESSAGES } from './schemas';
import { findRefreshToken, issueTokens, markRefreshUsed, revokeFamily } from './tokens';

/**
 * Rotates the refresh token: the presented one is used up and a new one of the
 * same family is issued. Presenting a used or revoked token again means it was
 * stolen (or replayed): the whole family is revoked, ending that session.
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
  const token = readRefreshCookie(request);
  if (!token) throw deny();
  const row = await findRefreshToken(db, token);
  // A token of another tenant is treated as unknown: it proves nothing here.
  if (!row || row.tenant !== tenant) throw deny();
  if (row.used_at || row.revoked_at) {
    await revokeFamily(db, row.family_id);
    request.log.warn(
      { user_id: row.user_id, family: row.family_id },
      'refresh token reuse: session family revoked',
    );
    throw deny();
  }
  if (row.expired) throw deny();
  const user = await findUserById(db, tenant, row.user_id);
  if (!user || user.status_id !== USER_STATUS.ACTIVE || user.session_version !== row.session_version) {
    await revokeFamily(db, row.family_id);
    throw deny();
  }
  const issued = await db.transaction(async (tx) => {
    if (!(await markRefreshUsed(tx, row.id))) return null;
    return issueTokens(tx, state.key, env, user, clientIp(request), row.family_id);
  });
  if (!issued) {
    // Lost a race with another use of the same token: that is reuse as well.
    await revokeFamily(db, row.family_id);
    throw deny();
  }
  setRefreshCookie(reply, env, issued.refreshToken);
  return issued.body;
}

/** Revokes the session of the cookie (its family); always 204. */
export async function signOut(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
) {
  const token = readRefreshCookie(request);
  if (token) {
    const row = await findRefreshToken(app.deps.db, token);
    if (row && row.tenant === tenant) await revokeFamily(app.deps.db, row.family_id);
  }
  clearRefreshCookie(reply, app.deps.env);
}
