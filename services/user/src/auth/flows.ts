import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignInResponse } from '@portal/contracts';
import { badRequest, forbidden, HttpError, unauthorized } from '@portal/core';
import { isIpBlockedForTenant, isIpBlockedForUser, recordLogin } from '../account/login-history-repo';
import { clientIp, publishUserChange, type UserServiceState, userAgent } from '../lib/context';
import {
  findUserById,
  findUserByUsername,
  setPassword,
  USER_STATUS,
  type UserRow,
} from '../users/repository';
import { setRefreshCookie } from './cookie';
import { newOpaqueToken, sha256 } from './crypto';
import { hashPassword, PASSWORD_MESSAGES, passwordViolations, verifyPassword } from './passwords';
import { AUTH_MESSAGES } from './messages';
import { claimAttempt, claimLockNotice, clearAttempts, THROTTLE, THROTTLE_MESSAGES } from './throttle';
import { issueTokens } from './tokens';

const CHALLENGE_TTL_SECONDS = 600;

export function requireText(value: string | undefined, message: string): string {
  if (!value || !value.trim()) throw badRequest(message);
  return value;
}

/** 400 naming the first broken password rule, with every violation in data.violations. */
export function checkPasswordPolicy(password: string, username: string): void {
  const violations = passwordViolations(password, username);
  if (violations.length) throw badRequest(violations[0]!, { violations });
}

/** 429 with data.retry_after, which the error handler also sends as the Retry-After header. */
export function throttleError(reason: 'wait' | 'locked', retryAfter: number): HttpError {
  return new HttpError(429, THROTTLE_MESSAGES[reason], { retry_after: retryAfter });
}

/**
 * Tells the owner that sign-in to their account was locked for an address
 * (once per lock, at most once an hour), after the answer: its latency tells
 * nothing. Sign-in from their usual address still works.
 */
function notifyLock(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  user: UserRow,
  ip: string,
): void {
  if (!user.email) return;
  setImmediate(() => {
    void (async () => {
      if (!(await claimLockNotice(app.deps.db, user.tenant, user.username))) return;
      const minutes = THROTTLE.lockSeconds / 60;
      await state.mailer.send({
        to: user.email,
        subject: 'Sign-in to your account was locked for an address',
        text:
          `Hello ${user.fname || user.username},\n\nThere were ${THROTTLE.lockAfter} failed attempts to sign in to your account ` +
          `(${user.username}) from the address ${ip}. Sign-in from that address is locked for ${minutes} minutes; ` +
          `you can still sign in from your usual network.\n\n` +
          `If this was not you, someone may be guessing your password: consider changing it, and tell your administrator.\n`,
      });
    })().catch((error: unknown) =>
      request.log.error({ err: error, user_id: user.id }, 'lock notice mail failed'),
    );
  });
}

/** Issues tokens, sets the refresh cookie and records the sign-in. */
export async function completeSignIn(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  method: 'password' | 'sso' | 'challenge',
) {
  const ip = clientIp(request);
  const tokens = await app.deps.db.transaction(async (tx) => {
    const issued = await issueTokens(tx, state.key, app.deps.env, user, ip);
    await recordLogin(tx, {
      tenant: user.tenant,
      userId: user.id,
      username: user.username,
      ip,
      success: true,
      method,
      userAgent: userAgent(request),
    });
    return issued;
  });
  setRefreshCookie(reply, app.deps.env, tokens.refreshToken);
  return tokens.body;
}

/**
 * Password sign-in. Unknown, federated and wrong-password answers are one
 * message, and every path runs one argon2 verification (a dummy hash when
 * there is no real one) so timing does not tell them apart either.
 */
export async function signIn(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
  username: string,
  password: string,
): Promise<SignInResponse> {
  const { db } = app.deps;
  const ip = clientIp(request);
  const ua = userAgent(request);
  const name = username.trim();
  const fail = async (user: UserRow | undefined, reason: string) =>
    recordLogin(db, {
      tenant,
      userId: user?.id ?? null,
      username: name,
      ip,
      success: false,
      method: 'password',
      reason,
      userAgent: ua,
    });

  if (await isIpBlockedForTenant(db, tenant, ip)) {
    await fail(await findUserByUsername(db, tenant, name), 'blocked_ip');
    throw forbidden(AUTH_MESSAGES.ipBlocked);
  }
  const decision = await claimAttempt(db, tenant, name, ip);
  if (!decision.ok) {
    await fail(
      await findUserByUsername(db, tenant, name),
      decision.reason === 'locked' ? 'throttle_locked' : 'throttle_wait',
    );
    throw throttleError(decision.reason, decision.retryAfter);
  }
  const user = await findUserByUsername(db, tenant, name);
  const ok = await verifyPassword(user && !user.is_federated ? user.password_hash : null, password);
  if (!user || !ok) {
    await fail(user, user?.is_federated ? 'federated' : 'bad_credentials');
    if (decision.locksOnFailure && user) notifyLock(app, state, request, user, ip);
    throw unauthorized(AUTH_MESSAGES.signInFailed);
  }
  // Checked only after the password: a blocked IP learns nothing about the account.
  if (await isIpBlockedForUser(db, tenant, user.id, ip)) {
    await fail(user, 'blocked_ip');
    throw unauthorized(AUTH_MESSAGES.signInFailed);
  }
  if (user.status_id !== USER_STATUS.ACTIVE) {
    await fail(user, 'inactive');
    throw unauthorized(AUTH_MESSAGES.accountLocked);
  }
  await clearAttempts(db, tenant, name, ip);
  if (user.new_password_required) {
    const session = newOpaqueToken();
    await db.query(
      `insert into users.challenge_sessions (token_hash, tenant, user_id, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4))`,
      [sha256(session), tenant, user.id, CHALLENGE_TTL_SECONDS],
    );
    await recordLogin(db, {
      tenant,
      userId: user.id,
      username: user.username,
      ip,
      success: false,
      method: 'password',
      reason: 'new_password_required',
      userAgent: ua,
    });
    return { challenge: 'NEW_PASSWORD_REQUIRED', session };
  }
  return completeSignIn(app, state, request, reply, user, 'password');
}

/** NEW_PASSWORD_REQUIRED: the session of the sign-in plus a new password gives tokens. */
export async function answerChallenge(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
  session: string,
  newPassword: string,
) {
  const { db } = app.deps;
  const { rows } = await db.query<{ user_id: number }>(
    `select user_id from users.challenge_sessions where token_hash = $1 and tenant = $2 and used_at is null and expires_at > now()`,
    [sha256(session), tenant],
  );
  const user = rows[0] ? await findUserById(db, tenant, rows[0].user_id) : undefined;
  if (!user || user.status_id !== USER_STATUS.ACTIVE || !user.new_password_required)
    throw unauthorized(AUTH_MESSAGES.challengeInvalid);
  checkPasswordPolicy(newPassword, user.username);
  if (await verifyPassword(user.password_hash, newPassword)) throw badRequest(PASSWORD_MESSAGES.same);
  const hash = await hashPassword(newPassword);
  const claimed = await db.transaction(async (tx) => {
    const used = await tx.query(
      `update users.challenge_sessions set used_at = now() where token_hash = $1 and used_at is null`,
      [sha256(session)],
    );
    if (used.rowCount !== 1) return false;
    await setPassword(tx, user.id, hash, { clearNewPasswordRequired: true });
    return true;
  });
  if (!claimed) throw unauthorized(AUTH_MESSAGES.challengeInvalid);
  await publishUserChange(app, tenant, user.id);
  const fresh = (await findUserById(db, tenant, user.id))!;
  return completeSignIn(app, state, request, reply, fresh, 'challenge');
}
