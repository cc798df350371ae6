import type { FastifyRequest } from 'fastify';
import { API_KEY_MANAGER_ROLES, API_KEY_MESSAGES as M, type RoleName } from '@portal/contracts';
import { badRequest, forbidden, HttpError, type Queryable } from '@portal/core';
import { refuseWhileImpersonating, type UserServiceState } from '../lib/context';
import { inSubtree, isProvider, loadActor, merchantOf, type Actor } from '../users/access';
import type { UserRow } from '../users/repository';

/** A signed-in key manager: merchant or partner admin (their subtree), provider admin or manager (any merchant). */
export interface KeyManager {
  actor: Actor;
  user: UserRow;
}

export function mayManageKeys(user: Pick<UserRow, 'role_name'>): boolean {
  return API_KEY_MANAGER_ROLES.includes(user.role_name as RoleName);
}

/**
 * The caller, when they may manage keys. Writes also need a writable account and the real person:
 * a key made while acting as someone else would be a lasting credential of that user.
 */
export async function keyManager(
  request: FastifyRequest,
  db: Queryable,
  write: boolean,
): Promise<KeyManager> {
  const actor = await loadActor(request, db);
  const user = actor.user;
  if (!user || !mayManageKeys(user)) throw forbidden(M.notAllowed);
  if (write) {
    if (actor.readOnly || user.is_read_only) throw forbidden(M.readOnly);
    refuseWhileImpersonating(request.ctx);
  }
  return { actor, user };
}

/** Whether `merchantId` is within the manager's scope (the merchant must exist: 400 otherwise). */
export async function requireMerchantInScope(
  state: UserServiceState,
  m: KeyManager,
  merchantId: number,
): Promise<void> {
  await merchantOf(state, m.actor, merchantId).catch((error: unknown) => {
    throw error instanceof HttpError && error.statusCode === 404 ? badRequest('Merchant not found.') : error;
  });
  if (!(await merchantInScope(state, m.actor, merchantId))) throw forbidden(M.merchantOutOfScope);
}

export async function merchantInScope(state: UserServiceState, actor: Actor, merchantId: number) {
  if (isProvider(actor)) return true;
  return inSubtree(state, actor, actor.user!.merchant_id, merchantId);
}
