import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLES, USER_MESSAGES, type CreateUserBody, type UpdateUserBody } from '@portal/contracts';
import {
  badRequest,
  CallInTransactionError,
  conflict,
  forbidden,
  notFound,
  systemContext,
} from '@portal/core';
import { hashPassword } from '../auth/passwords';
import { clearAttempts } from '../auth/throttle';
import { revokeUserTokens } from '../auth/tokens';
import { audit, publishUserChange, type UserServiceState } from '../lib/context';
import { allowedDomains } from '../profile/merchants';
import { merchantOf, requireManage, rolesForMerchant, type Actor } from './access';
import { findUserById, findUserByUsername, type UserRow } from './repository';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;

/** A temporary password meeting the policy (8-25 chars, digit, capital, lowercase, special). */
export function temporaryPassword(): string {
  const pick = (set: string) => set[randomInt(set.length)]!;
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '#$%&*!?@'];
  const chars = sets.map(pick);
  while (chars.length < 14) chars.push(pick(sets.join('')));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export async function requireTarget(app: FastifyInstance, actor: Actor, id: number): Promise<UserRow> {
  const user = await findUserById(app.deps.db, actor.tenant, id);
  if (!user) throw notFound('User not found.');
  return user;
}

export function refuseSelf(actor: Actor, target: UserRow): void {
  if (actor.user?.id === target.id) throw forbidden(USER_MESSAGES.notOwnAccount);
}

function checkEmail(email: string | undefined): string {
  const value = (email ?? '').trim();
  if (!value || !EMAIL.test(value)) throw badRequest(USER_MESSAGES.emailRequired);
  return value;
}

/** The merchant's domain whitelist (spec 3 §5): the email's domain must be one of them, when there are any. */
async function checkDomain(state: UserServiceState, actor: Actor, merchantId: number, email: string) {
  const domains = allowedDomains(await merchantOf(state, actor, merchantId));
  const domain = email.split('@')[1]!.toLowerCase();
  if (domains.length && !domains.includes(domain))
    throw badRequest(USER_MESSAGES.emailDomain, { allowed_domains: domains });
}

async function checkRoleForMerchant(
  state: UserServiceState,
  actor: Actor,
  roleId: number,
  merchantId: number,
) {
  const merchant = await merchantOf(state, actor, merchantId).catch((error: unknown) => {
    if ((error as { statusCode?: number }).statusCode === 502) throw error;
    throw badRequest('Merchant not found.');
  });
  if (!rolesForMerchant(actor, merchant).some((r) => ROLES[r] === roleId)) {
    throw badRequest('This role cannot be assigned to users of this merchant.');
  }
}

/** Keeps the case service's replica of assignable staff (roles 8 and 9) current; best effort, logged. */
async function syncAssignee(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  user: UserRow | undefined,
) {
  if (!user || (user.role_id !== ROLES.cb911_manager && user.role_id !== ROLES.cb911_agent)) return;
  try {
    await state.caseClient.request(
      'PUT',
      `/cm/assignees/${user.id}`,
      systemContext(user.tenant, request.ctx.request_id),
      {
        username: user.username,
        fname: user.fname,
        lname: user.lname,
        role_id: user.role_id,
        is_active: user.status_id === 1,
      },
    );
  } catch (error) {
    if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
    request.log.warn({ err: error, user_id: user.id }, 'could not update the case service assignee');
  }
}

export async function createUser(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  actor: Actor,
  body: CreateUserBody,
) {
  if (!(body.role > 0) || !Object.values(ROLES).includes(body.role as never))
    throw badRequest(USER_MESSAGES.roleRequired);
  const fname = body.fname.trim();
  const lname = body.lname.trim();
  if (!fname) throw badRequest(USER_MESSAGES.fnameRequired);
  if (!lname) throw badRequest(USER_MESSAGES.lnameRequired);
  const email = checkEmail(body.email);
  const username = body.username.trim();
  if (!username) throw badRequest(USER_MESSAGES.usernameRequired);
  if (!USERNAME.test(username))
    throw badRequest('A username may contain letters, digits and . _ @ + - only.');
  await requireManage(state, actor, null, { roleId: body.role, merchantId: body.merchant });
  await checkRoleForMerchant(state, actor, body.role, body.merchant);
  await checkDomain(state, actor, body.merchant, email);
  const { db } = app.deps;
  if (await findUserByUsername(db, actor.tenant, username)) throw conflict(USER_MESSAGES.usernameTaken);
  const temporary = temporaryPassword();
  const hash = await hashPassword(temporary);
  const id = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `insert into users.users (tenant, username, email, fname, lname, role_id, merchant_id, status_id, is_read_only,
                                password_hash, password_changed_at, new_password_required, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), true, $11)
       on conflict do nothing returning id`,
      [
        actor.tenant,
        username,
        email,
        fname,
        lname,
        body.role,
        body.merchant,
        body.status ?? 1,
        body.is_read_only ?? false,
        hash,
        actor.user?.id ?? null,
      ],
    );
    if (!rows[0]) return null;
    const groups = body.groups?.length ? body.groups.filter((g) => g === 0) : [0];
    for (const g of groups.length ? groups : [0])
      await tx.query(`insert into users.user_groups (user_id, group_id) values ($1, $2)`, [rows[0].id, g]);
    await audit(tx, request, {
      action: 'user.create',
      targetUserId: rows[0].id,
      detail: { username, role: body.role, merchant: body.merchant },
    });
    return rows[0].id;
  });
  if (id === null) throw conflict(USER_MESSAGES.usernameTaken);
  const created = await findUserById(db, actor.tenant, id);
  await syncAssignee(app, state, request, created);
  void state.mailer
    .send({
      to: email,
      subject: 'Your chargeback portal account',
      text:
        `Hello ${fname},\n\nAn account was created for you.\n\nUsername: ${username}\nTemporary password: ${temporary}\n\n` +
        'You will be asked to choose a new password when you first sign in.\n',
    })
    .catch((error: unknown) => request.log.error({ err: error, user_id: id }, 'welcome mail failed'));
  return id;
}

export async function updateUser(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  actor: Actor,
  target: UserRow,
  body: UpdateUserBody,
) {
  const self = actor.user?.id === target.id;
  const adminFields = (['role', 'merchant', 'status', 'is_read_only'] as const).filter(
    (k) => body[k] !== undefined,
  );
  const roleChanges = body.role !== undefined && body.role !== target.role_id;
  const merchantChanges = body.merchant !== undefined && body.merchant !== target.merchant_id;
  if (body.role !== undefined && !(body.role > 0)) throw badRequest(USER_MESSAGES.roleRequired);
  if (body.fname !== undefined && !body.fname.trim()) throw badRequest(USER_MESSAGES.fnameRequired);
  if (body.lname !== undefined && !body.lname.trim()) throw badRequest(USER_MESSAGES.lnameRequired);
  const email = body.email !== undefined ? checkEmail(body.email) : undefined;
  if (self) {
    // One's own role, company, status and read-only flag are set by someone else.
    if (
      adminFields.some(
        (k) =>
          body[k] !==
          (k === 'role'
            ? target.role_id
            : k === 'merchant'
              ? target.merchant_id
              : k === 'status'
                ? target.status_id
                : target.is_read_only),
      )
    ) {
      throw forbidden(USER_MESSAGES.notOwnAccount);
    }
    if (actor.readOnly || target.is_read_only) throw forbidden('Read-only users cannot change data.');
  } else {
    await requireManage(state, actor, target, {
      ...(roleChanges ? { roleId: body.role } : {}),
      ...(merchantChanges ? { merchantId: body.merchant } : {}),
    });
  }
  if (email !== undefined && email !== target.email && target.is_federated)
    throw forbidden(USER_MESSAGES.federatedEmail);
  const merchantId = body.merchant ?? target.merchant_id;
  if (roleChanges || merchantChanges)
    await checkRoleForMerchant(state, actor, body.role ?? target.role_id, merchantId);
  if ((email !== undefined && email !== target.email) || merchantChanges)
    await checkDomain(state, actor, merchantId, email ?? target.email);
  const locking = body.status !== undefined && body.status !== target.status_id;
  const { db } = app.deps;
  await db.transaction(async (tx) => {
    await tx.query(
      `update users.users set fname = coalesce($2, fname), lname = coalesce($3, lname), email = coalesce($4, email),
              role_id = coalesce($5, role_id), merchant_id = coalesce($6, merchant_id), status_id = coalesce($7, status_id),
              is_read_only = coalesce($8, is_read_only), updated_at = now(),
              session_version = session_version + case when $9 then 1 else 0 end
        where id = $1`,
      [
        target.id,
        body.fname?.trim() ?? null,
        body.lname?.trim() ?? null,
        email ?? null,
        body.role ?? null,
        body.merchant ?? null,
        body.status ?? null,
        body.is_read_only ?? null,
        locking || roleChanges || merchantChanges,
      ],
    );
    if (locking && body.status !== 1) await revokeUserTokens(tx, target.id);
    await audit(tx, request, { action: 'user.update', targetUserId: target.id, detail: body });
  });
  if (locking && body.status === 1) await clearAttempts(db, target.tenant, target.username);
  await publishUserChange(app, actor.tenant, target.id);
  await syncAssignee(app, state, request, await findUserById(db, actor.tenant, target.id));
}

/** Temporary password (spec 3 'Temporary password'): mailed, to be replaced at next sign-in; every session ends. */
export async function resetUser(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  actor: Actor,
  target: UserRow,
) {
  refuseSelf(actor, target);
  await requireManage(state, actor, target);
  if (target.is_federated)
    throw badRequest('Federated users sign in through single sign-on and have no password to reset.');
  const temporary = temporaryPassword();
  const hash = await hashPassword(temporary);
  await app.deps.db.transaction(async (tx) => {
    await tx.query(
      `update users.users set password_hash = $2, password_changed_at = now(), new_password_required = true,
              session_version = session_version + 1, updated_at = now() where id = $1`,
      [target.id, hash],
    );
    await revokeUserTokens(tx, target.id);
    await audit(tx, request, { action: 'user.reset_password', targetUserId: target.id });
  });
  await clearAttempts(app.deps.db, target.tenant, target.username);
  await publishUserChange(app, actor.tenant, target.id);
  void state.mailer
    .send({
      to: target.email,
      subject: 'Your password was reset',
      text: `Hello ${target.fname},\n\nAn administrator reset your password.\n\nUsername: ${target.username}\nTemporary password: ${temporary}\n\nYou will be asked to choose a new password when you sign in.\n`,
    })
    .catch((error: unknown) => request.log.error({ err: error, user_id: target.id }, 'reset mail failed'));
}
