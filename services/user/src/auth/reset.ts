import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, forbidden, HttpError } from '@portal/core';
import { audit, clientIp, publishUserChange, type UserContext, type UserServiceState } from '../lib/context';
import { findUserById, findUserByUsername, setPassword, USER_STATUS } from '../users/repository';
import { newNumericCode, safeEqual, sha256 } from './crypto';
import { checkPasswordPolicy, throttleError } from './flows';
import { hashPassword, PASSWORD_MESSAGES, verifyPassword } from './passwords';
import { AUTH_MESSAGES } from './messages';
import { claimAttempt, clearAttempts } from './throttle';
import { familyOf, revokeUserTokens } from './tokens';
import { readRefreshCookie } from './cookie';

const RESET_CODE = { ttlSeconds: 15 * 60, maxAttempts: 5, minIntervalSeconds: 60 } as const;

const codeHash = (userId: number, code: string) => sha256(`${userId}:${code}`);

/**
 * Forgot password: mails a one-time code when the username is an active,
 * non-federated account with an email. The answer is 204 whatever happens,
 * and the mail is sent after answering so its latency tells nothing.
 */
export async function forgot(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  tenant: string,
  username: string,
) {
  const { db } = app.deps;
  const user = await findUserByUsername(db, tenant, username.trim());
  if (!user || user.is_federated || user.status_id !== USER_STATUS.ACTIVE || !user.email) return;
  const code = newNumericCode();
  const created = await db.transaction(async (tx) => {
    // One code a minute per user: the mailbox cannot be flooded.
    const recent = await tx.query(
      `select 1 from users.password_reset_codes where user_id = $1 and created_at > now() - make_interval(secs => $2)`,
      [user.id, RESET_CODE.minIntervalSeconds],
    );
    if (recent.rows.length) return false;
    // A new code replaces the previous ones.
    await tx.query(
      `update users.password_reset_codes set used_at = now() where user_id = $1 and used_at is null`,
      [user.id],
    );
    await tx.query(
      `insert into users.password_reset_codes (tenant, user_id, code_hash, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4))`,
      [tenant, user.id, codeHash(user.id, code), RESET_CODE.ttlSeconds],
    );
    return true;
  });
  if (!created) return;
  const minutes = RESET_CODE.ttlSeconds / 60;
  setImmediate(() => {
    state.mailer
      .send({
        to: user.email,
        subject: 'Your password reset code',
        text:
          `Hello ${user.fname || user.username},\n\nYour verification code is ${code}\n\n` +
          `It expires in ${minutes} minutes and can be used once. If you did not ask to reset your password, ignore this message.\n`,
      })
      .catch((error: unknown) =>
        request.log.error({ err: error, user_id: user.id }, 'password reset mail failed'),
      );
  });
}

/**
 * Confirms a forgot-password code. Each guess is counted atomically against
 * the code before it is compared; after RESET_CODE.maxAttempts the code is
 * dead. Wrong, expired, used-up codes and unknown users get one message.
 */
export async function confirmForgot(
  app: FastifyInstance,
  tenant: string,
  username: string,
  code: string,
  newPassword: string,
) {
  const { db } = app.deps;
  checkPasswordPolicy(newPassword, username.trim());
  const user = await findUserByUsername(db, tenant, username.trim());
  const invalid = () => badRequest(AUTH_MESSAGES.codeInvalid);
  if (!user || user.is_federated || user.status_id !== USER_STATUS.ACTIVE) throw invalid();
  const { rows } = await db.query<{ id: number; code_hash: string }>(
    `update users.password_reset_codes set attempts = attempts + 1
      where id = (select id from users.password_reset_codes where user_id = $1 order by created_at desc, id desc limit 1)
        and used_at is null and expires_at > now() and attempts < $2
      returning id, code_hash`,
    [user.id, RESET_CODE.maxAttempts],
  );
  const row = rows[0];
  if (!row || !safeEqual(row.code_hash, codeHash(user.id, code.trim()))) throw invalid();
  const hash = await hashPassword(newPassword);
  const done = await db.transaction(async (tx) => {
    const used = await tx.query(
      `update users.password_reset_codes set used_at = now() where id = $1 and used_at is null`,
      [row.id],
    );
    if (used.rowCount !== 1) return false;
    // The owner of the mailbox proved themselves: the new password satisfies every pending password demand.
    await setPassword(tx, user.id, hash, { clearNewPasswordRequired: true, clearMustUpdate: true });
    await tx.query(`update users.users set session_version = session_version + 1 where id = $1`, [user.id]);
    await revokeUserTokens(tx, user.id);
    return true;
  });
  if (!done) throw invalid();
  await clearAttempts(db, tenant, user.username);
  await publishUserChange(app, tenant, user.id);
}

/** Signed-in password change; the other sessions of the user end, this one stays. */
export async function changePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  ctx: UserContext,
  current: string,
  next: string,
) {
  const { db } = app.deps;
  if (ctx.actor_id !== ctx.user_id) throw forbidden('This is not allowed while acting as another user.');
  const user = await findUserById(db, ctx.tenant, ctx.user_id);
  if (!user) throw new HttpError(401, 'Authentication required.');
  if (user.is_federated) throw forbidden(AUTH_MESSAGES.federatedPassword);
  if (current === next) throw badRequest(PASSWORD_MESSAGES.same);
  checkPasswordPolicy(next, user.username);
  // A stolen access token must not become an unlimited password oracle.
  const ip = clientIp(request);
  const decision = await claimAttempt(db, ctx.tenant, user.username, ip);
  if (!decision.ok) throw throttleError(decision.reason, decision.retryAfter);
  if (!(await verifyPassword(user.password_hash, current)))
    throw badRequest(AUTH_MESSAGES.currentPasswordWrong);
  await clearAttempts(db, ctx.tenant, user.username, ip);
  const hash = await hashPassword(next);
  const family = await familyOf(db, readRefreshCookie(request), ctx.tenant, user.id);
  await db.transaction(async (tx) => {
    await setPassword(tx, user.id, hash, { clearNewPasswordRequired: true });
    await revokeUserTokens(tx, user.id, family);
    await audit(tx, request, { action: 'password.change', targetUserId: user.id });
  });
  await publishUserChange(app, ctx.tenant, user.id);
}

/**
 * After a forced update (must_update_password), the web app calls this: it
 * clears the flag only if the password really changed since it was set.
 */
export async function passwordUpdated(app: FastifyInstance, ctx: UserContext) {
  const { db } = app.deps;
  const { rows } = await db.query<{ must: boolean; changed: boolean }>(
    `select must_update_password as must,
            coalesce(password_changed_at > coalesce(must_update_password_since, '-infinity'::timestamptz), false) as changed
       from users.users where tenant = $1 and id = $2`,
    [ctx.tenant, ctx.user_id],
  );
  const row = rows[0];
  if (!row) throw new HttpError(401, 'Authentication required.');
  if (!row.must) return;
  if (!row.changed) throw new HttpError(400, AUTH_MESSAGES.resetFailed, undefined, 401);
  await db.query(`update users.users set must_update_password = false, updated_at = now() where id = $1`, [
    ctx.user_id,
  ]);
  await publishUserChange(app, ctx.tenant, ctx.user_id);
}
