import type { InternalContext, UserItem } from '@portal/contracts';
import { MID_PERMISSION_MESSAGES } from '@portal/contracts';
import {
  badRequest,
  CallInTransactionError,
  HttpError,
  type Queryable,
  type ServiceClient,
} from '@portal/core';
import { subtreeIds } from '../scope/scope';

/**
 * MID permissions (spec 3 §2 'MID permissions panel'). The user service owns
 * the allow/exclude lists (users.user_mids, read into every signed context);
 * the case service owns the MIDs. So this module checks the MIDs (known,
 * active, inside the target user's merchant subtree) and then writes the
 * lists through the user service with the caller's own context re-signed:
 * the user service applies the who-may-manage-whom rules (own account,
 * read-only, partner and merchant admin scope) in one place.
 */
const MID_ACTIVE = 2;

export interface MidRow {
  id: number;
  mid: string;
  alias: string | null;
  status_id: number;
  merchant_id: number;
}

export interface UserMids {
  mids: string[];
  exclude_mids: string[];
}

/** The caller's context, re-signed for a call to the user service. */
function forward(ctx: InternalContext): Omit<InternalContext, 'exp'> {
  const { exp: _exp, ...context } = ctx;
  return context;
}

/** Upstream answers keep their 4xx (the user service's own messages); anything else is a 502. */
function upstream(error: unknown): HttpError {
  if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
  if (error instanceof HttpError) return error;
  return new HttpError(502, 'The user service is unavailable. Please try again later.');
}

export async function targetUser(users: ServiceClient, ctx: InternalContext, userId: number) {
  return users.get<UserItem>(`/users/users/${userId}`, forward(ctx)).catch((e: unknown) => {
    throw upstream(e);
  });
}

export async function readUserMids(
  users: ServiceClient,
  ctx: InternalContext,
  userId: number,
): Promise<UserMids> {
  return users.get<UserMids>(`/users/users/${userId}/mids`, forward(ctx)).catch((e: unknown) => {
    throw upstream(e);
  });
}

export async function writeUserMids(
  users: ServiceClient,
  ctx: InternalContext,
  userId: number,
  lists: UserMids,
): Promise<void> {
  await users.request('PUT', `/users/users/${userId}/mids`, forward(ctx), lists).catch((e: unknown) => {
    throw upstream(e);
  });
}

/** MID rows named by number or id in the tenant (unknown entries are left out). */
export async function findMids(db: Queryable, tenant: string, refs: readonly string[]): Promise<MidRow[]> {
  if (!refs.length) return [];
  const { rows } = await db.query<MidRow>(
    `select id::int as id, mid, alias, status_id, merchant_id::int as merchant_id from cases.mids
      where tenant_id = $1 and (mid = any($2::text[]) or id::text = any($2::text[]))
      order by mid`,
    [tenant, refs],
  );
  return rows;
}

/**
 * Resolves requested MIDs to MID numbers: each must exist in the user's
 * merchant subtree (else 400 'MID not found.', never telling other merchants'
 * MIDs apart from unknown ones) and be active (else 400 naming them).
 */
export async function checkAssignable(
  db: Queryable,
  tenant: string,
  userMerchantId: number,
  refs: readonly string[],
): Promise<string[]> {
  const wanted = [...new Set(refs.map((r) => r.trim()).filter(Boolean))];
  if (!wanted.length) return [];
  const subtree = new Set(await subtreeIds(db, tenant, userMerchantId));
  const found = (await findMids(db, tenant, wanted)).filter((m) => subtree.has(m.merchant_id));
  const missing = wanted.filter((w) => !found.some((m) => m.mid === w || String(m.id) === w));
  if (missing.length) throw badRequest(MID_PERMISSION_MESSAGES.unknown, { mids: missing });
  const inactive = found.filter((m) => m.status_id !== MID_ACTIVE).map((m) => m.mid);
  if (inactive.length) throw badRequest(MID_PERMISSION_MESSAGES.inactive, { mids: inactive });
  return [...new Set(found.map((m) => m.mid))];
}
