import type { FastifyRequest } from 'fastify';
import { MERCHANT_ROLES, PARTNER_ROLES, PROVIDER_ROLES, ROLES, type RoleName } from '@portal/contracts';
import { badRequest, forbidden, unauthorized, type Queryable } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { findMerchant, type MerchantInfo } from '../profile/merchants';
import { findUserById, USER_STATUS, type UserRow } from './repository';

/**
 * Who may see and manage which users (spec 3 §2 and §6; the rest is ours):
 * - provider staff see the whole tenant; partner and merchant roles see the
 *   users of their merchant subtree; merchant_user sees only themself;
 * - cb911_admin manages everyone, cb911_manager everyone but cb911_admin,
 *   partner_admin the partner and merchant roles of its subtree,
 *   merchant_admin the merchant roles of its subtree; nobody else manages;
 * - read-only users change nothing; system calls (other services, the
 *   gateway's 'Login As' check) see the whole tenant.
 */
const ASSIGNABLE: Record<RoleName, readonly RoleName[]> = {
  cb911_admin: [
    'cb911_admin',
    'cb911_manager',
    'cb911_agent',
    'partner_admin',
    'partner_user',
    'merchant_admin',
    'merchant_user',
  ],
  cb911_manager: [
    'cb911_manager',
    'cb911_agent',
    'partner_admin',
    'partner_user',
    'merchant_admin',
    'merchant_user',
  ],
  cb911_agent: [],
  partner_admin: ['partner_admin', 'partner_user', 'merchant_admin', 'merchant_user'],
  partner_user: [],
  merchant_admin: ['merchant_admin', 'merchant_user'],
  merchant_user: [],
};

export interface Actor {
  tenant: string;
  requestId: string;
  /** null for system calls. */
  user: UserRow | null;
  readOnly: boolean;
  /** Memo of merchants fetched from the case service during this request. */
  merchants: Map<number, Promise<MerchantInfo>>;
}

export async function loadActor(request: FastifyRequest, db: Queryable): Promise<Actor> {
  const ctx = request.ctx;
  const base = {
    tenant: ctx.tenant,
    requestId: ctx.request_id,
    readOnly: ctx.read_only,
    merchants: new Map(),
  };
  if (ctx.kind === 'system') return { ...base, user: null };
  if (ctx.kind !== 'user' || ctx.user_id === null) throw unauthorized();
  const user = await findUserById(db, ctx.tenant, ctx.user_id);
  if (!user || user.status_id !== USER_STATUS.ACTIVE) throw unauthorized();
  return { ...base, user };
}

export function merchantOf(state: UserServiceState, actor: Actor, id: number): Promise<MerchantInfo> {
  let hit = actor.merchants.get(id);
  if (!hit) {
    hit = findMerchant(state, actor.tenant, id, actor.requestId);
    actor.merchants.set(id, hit);
  }
  return hit;
}

/** True when merchant `id` is `root` or below it (walks parent ids through the case service). */
export async function inSubtree(
  state: UserServiceState,
  actor: Actor,
  root: number,
  id: number,
): Promise<boolean> {
  let current: number | null = id;
  for (let depth = 0; current !== null && depth < 20; depth++) {
    if (current === root) return true;
    current = (await merchantOf(state, actor, current)).parent_id;
  }
  return false;
}

export function isProvider(actor: Actor): boolean {
  return actor.user === null || PROVIDER_ROLES.includes(actor.user.role_name as RoleName);
}

export async function canSee(state: UserServiceState, actor: Actor, target: UserRow): Promise<boolean> {
  if (target.tenant !== actor.tenant) return false;
  if (isProvider(actor)) return true;
  const me = actor.user!;
  if (target.id === me.id) return true;
  if (me.role_name === 'merchant_user') return false;
  return inSubtree(state, actor, me.merchant_id, target.merchant_id);
}

export function assignableRoles(actor: Actor): readonly RoleName[] {
  if (actor.user === null) return ASSIGNABLE.cb911_admin;
  return ASSIGNABLE[actor.user.role_name as RoleName] ?? [];
}

function requireWriter(actor: Actor): void {
  if (actor.readOnly || actor.user?.is_read_only) throw forbidden('Read-only users cannot change data.');
  if (assignableRoles(actor).length === 0) throw forbidden();
}

/** The actor may change `target` (and, when given, give it `roleId` at `merchantId`). */
export async function requireManage(
  state: UserServiceState,
  actor: Actor,
  target: UserRow | null,
  change: { roleId?: number; merchantId?: number } = {},
): Promise<void> {
  requireWriter(actor);
  const allowed = assignableRoles(actor);
  if (target) {
    if (!allowed.includes(target.role_name as RoleName)) throw forbidden();
    if (!(await canSee(state, actor, target))) throw forbidden();
  }
  if (change.roleId !== undefined && !allowed.some((r) => ROLES[r] === change.roleId))
    throw forbidden('You cannot assign this role.');
  if (change.merchantId !== undefined) {
    // The merchant named in the request must exist (400, not the case service's 404 or a 502).
    await merchantOf(state, actor, change.merchantId).catch((error: unknown) => {
      throw (error as { statusCode?: number }).statusCode === 404 ? badRequest('Merchant not found.') : error;
    });
    if (!isProvider(actor) && !(await inSubtree(state, actor, actor.user!.merchant_id, change.merchantId)))
      throw forbidden('You cannot manage users of this merchant.');
  }
}

/** Roles offered for a merchant: provider roles on the root merchant, partner and merchant roles below it. */
export function rolesForMerchant(actor: Actor, merchant: MerchantInfo): RoleName[] {
  const level: readonly RoleName[] =
    merchant.parent_id === null ? PROVIDER_ROLES : [...PARTNER_ROLES, ...MERCHANT_ROLES];
  return assignableRoles(actor).filter((r) => level.includes(r));
}

/** Roles offered 'Login As' (spec 3 §2); partner_admin only on a payment-processor tenant, which the gateway checks. */
const LOGIN_AS_ROLES: readonly RoleName[] = ['cb911_admin', 'partner_admin'];

/**
 * The actor may 'Login As' `target` (design §4 step 4, issue 20 item 3): a
 * writable signed-in user holding a Login As role, acting as an active user
 * other than themself, never a cb911_admin, and only someone they may manage
 * (ASSIGNABLE role inside their subtree; provider staff only for cb911_admin).
 */
export async function requireImpersonate(
  state: UserServiceState,
  actor: Actor,
  target: UserRow,
): Promise<void> {
  const me = actor.user;
  if (!me || !LOGIN_AS_ROLES.includes(me.role_name as RoleName)) throw forbidden();
  if (target.id === me.id || target.role_name === 'cb911_admin') throw forbidden();
  if (target.status_id !== USER_STATUS.ACTIVE) throw forbidden();
  await requireManage(state, actor, target);
}
