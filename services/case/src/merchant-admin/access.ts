import {
  INVALIDATE_CHANNEL,
  MERCHANT_EDITOR_ROLES,
  MID_EDITOR_ROLES,
  type InternalContext,
  type InvalidationMessage,
} from '@portal/contracts';
import { badRequest, forbidden, type Cache } from '@portal/core';
import type { Scope } from '../scope/scope';

/**
 * The page roles of spec 3 §6 by action (the gateway checks the resources;
 * this is the defence in depth by role, per the seed matrix).
 */
const ROLE_RULES = {
  CREATE_MERCHANT: MERCHANT_EDITOR_ROLES,
  EDIT_MERCHANT: MERCHANT_EDITOR_ROLES,
  CREATE_MID: MERCHANT_EDITOR_ROLES,
  EDIT_MID: MID_EDITOR_ROLES,
  EDIT_RDR: MID_EDITOR_ROLES,
} as const;
type AdminAction = keyof typeof ROLE_RULES;

/** Refuses read-only users and roles without the action; system calls pass. */
export function assertMayWrite(ctx: InternalContext, action: AdminAction): void {
  if (ctx.kind === 'system') return;
  if (ctx.read_only) throw forbidden('Read-only users cannot change merchants or MIDs.');
  const allowed: readonly string[] = ROLE_RULES[action];
  if (!ctx.roles.some((r) => allowed.includes(r.toLowerCase())))
    throw forbidden('You do not have permission to do that.');
}

/** True when a merchant id lies in the caller's subtree (staff: the whole tenant). */
export function inScope(scope: Scope, merchantId: number): boolean {
  return scope.merchantIds === null || scope.merchantIds.includes(merchantId);
}

/** Same 400 for unknown and out-of-scope merchants, so nothing leaks. */
export function assertMerchantInScope(scope: Scope, merchantId: number, field: string, known: boolean): void {
  if (!known || !inScope(scope, merchantId)) throw badRequest(`${field}: merchant ${merchantId} not found.`);
}

/** Tells every gateway that cached merchant and profile entries are stale (call after commit). */
export async function publishMerchantChange(cache: Cache, tenant: string, id: number): Promise<void> {
  const message: InvalidationMessage = { tenant, kind: 'merchant', id };
  await cache.publish(INVALIDATE_CHANNEL, JSON.stringify(message));
}

/** 400 carrying every field message at once (`data.errors`), the first in the message. */
export function fieldErrors(errors: Record<string, string>): void {
  const keys = Object.keys(errors);
  if (!keys.length) return;
  const first = keys[0]!;
  throw badRequest(`${first}: ${errors[first]}`, { errors });
}

export const blank = (v: string | null | undefined): boolean => v === undefined || v === null || !v.trim();
export const trimOrNull = (v: string | null | undefined): string | null =>
  v === undefined || v === null || !v.trim() ? null : v.trim();
