import type { InternalContext } from '@portal/contracts';
import { badRequest, forbidden, type Queryable } from '@portal/core';
import { narrowToMerchant, resolveScope, type Scope } from '../scope/scope';
import { isoDay, parseDateRange, type DateRange } from '../scope/dates';

/** The caller's scope narrowed by the merchant switcher (merchant_id, or client_id as the case list names it). */
export async function alertScope(
  db: Queryable,
  ctx: InternalContext,
  q: { merchant_id?: number; client_id?: number },
): Promise<Scope> {
  const merchantId = q.merchant_id ?? q.client_id;
  return narrowToMerchant(
    db,
    await resolveScope(db, ctx),
    merchantId,
    q.merchant_id !== undefined ? 'merchant_id' : 'client_id',
  );
}

/**
 * SQL conditions of a scope on the alerts (alias a) and their descriptors
 * (alias ad, which carries the MID). An alert whose descriptor maps to no MID
 * is hidden from users limited to an allow-list of MIDs, shown otherwise.
 */
export function alertScopeConditions(scope: Scope, params: unknown[], owner: 'a' | 'ad' = 'a'): string[] {
  // owner: the alias whose tenant and merchant count (the alert, or a descriptor on its own).
  params.push(scope.tenant);
  const conditions = [`${owner}.tenant_id = $${params.length}`];
  if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    conditions.push(`${owner}.merchant_id = any($${params.length}::bigint[])`);
  }
  if (scope.midsAllowed !== null) {
    params.push(scope.midsAllowed);
    conditions.push(`ad.mid_id = any($${params.length}::bigint[])`);
  }
  if (scope.midsExcluded.length) {
    params.push(scope.midsExcluded);
    conditions.push(`(ad.mid_id is null or ad.mid_id <> all($${params.length}::bigint[]))`);
  }
  return conditions;
}

/** The alert date range: default the last 7 days up to today; a future start is refused, a future end clamped. */
export function alertDateRange(value: string | undefined, days: number, today = new Date()): DateRange {
  const todayIso = isoDay(today);
  const parsed = parseDateRange(value, 'date_range');
  if (!parsed) return { from: isoDay(new Date(today.getTime() - days * 86_400_000)), to: todayIso };
  if (parsed.from > todayIso) throw badRequest('date_range: future dates are not allowed.');
  return { from: parsed.from, to: parsed.to > todayIso ? todayIso : parsed.to };
}

export function assertAlertsWritable(ctx: InternalContext): void {
  if (ctx.read_only) throw forbidden('Read-only users cannot change alerts.');
}
