import { isProviderStaff, type InternalContext } from '@portal/contracts';
import { badRequest, forbidden, type Queryable } from '@portal/core';

/**
 * What a caller may see, resolved once per request from the gateway's signed
 * context (design §4): the tenant, the merchant ids of their subtree (null =
 * whole tenant: provider staff and system calls) and the MID allow/exclude
 * lists resolved to MID ids.
 */
export interface Scope {
  tenant: string;
  merchantIds: number[] | null;
  midsAllowed: number[] | null;
  midsExcluded: number[];
}

export async function subtreeIds(db: Queryable, tenant: string, rootId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `with recursive t(id) as (
       select id from cases.merchants where tenant_id = $1 and id = $2
       union all
       select m.id from cases.merchants m join t on m.parent_id = t.id where m.tenant_id = $1
     ) select id from t`,
    [tenant, rootId],
  );
  return rows.map((r) => Number(r.id));
}

async function midIds(db: Queryable, tenant: string, mids: readonly string[]): Promise<number[]> {
  // Entries are MID numbers (as shown to users) or MID ids.
  const { rows } = await db.query<{ id: number }>(
    `select id from cases.mids where tenant_id = $1 and (mid = any($2::text[]) or id::text = any($2::text[]))`,
    [tenant, mids],
  );
  return rows.map((r) => Number(r.id));
}

export async function resolveScope(db: Queryable, ctx: InternalContext): Promise<Scope> {
  const wholeTenant = ctx.kind === 'system' || isProviderStaff(ctx.roles);
  let merchantIds: number[] | null = null;
  if (!wholeTenant)
    merchantIds = ctx.merchant_id == null ? [] : await subtreeIds(db, ctx.tenant, ctx.merchant_id);
  return {
    tenant: ctx.tenant,
    merchantIds,
    midsAllowed: ctx.mids_allowed.length ? await midIds(db, ctx.tenant, ctx.mids_allowed) : null,
    midsExcluded: ctx.mids_excluded.length ? await midIds(db, ctx.tenant, ctx.mids_excluded) : [],
  };
}

/**
 * Narrows a scope to a merchant's subtree (the merchant switcher's client_id).
 * Unknown and out-of-scope merchants get the same 400, so nothing leaks.
 */
export async function narrowToMerchant(
  db: Queryable,
  scope: Scope,
  merchantId: number | undefined,
  param: string,
): Promise<Scope> {
  if (merchantId === undefined) return scope;
  const ids = await subtreeIds(db, scope.tenant, merchantId);
  const inScope = ids.filter((id) => scope.merchantIds === null || scope.merchantIds.includes(id));
  if (!ids.length || (scope.merchantIds !== null && !scope.merchantIds.includes(merchantId))) {
    throw badRequest(`${param}: merchant ${merchantId} not found.`);
  }
  return { ...scope, merchantIds: inScope };
}

/** Read-only users may not change data here either (defence in depth behind the gateway). */
export function assertWritable(ctx: InternalContext): void {
  if (ctx.read_only) throw forbidden('Read-only users cannot change cases.');
}

/** SQL conditions of a scope on a table alias with merchant_id and mid_id; appends the parameters. */
export function scopeConditions(scope: Scope, alias: string, params: unknown[]): string[] {
  params.push(scope.tenant);
  const conditions = [`${alias}.tenant_id = $${params.length}`];
  if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    conditions.push(`${alias}.merchant_id = any($${params.length}::bigint[])`);
  }
  if (scope.midsAllowed !== null) {
    params.push(scope.midsAllowed);
    conditions.push(`${alias}.mid_id = any($${params.length}::bigint[])`);
  }
  if (scope.midsExcluded.length) {
    params.push(scope.midsExcluded);
    conditions.push(`${alias}.mid_id <> all($${params.length}::bigint[])`);
  }
  return conditions;
}
