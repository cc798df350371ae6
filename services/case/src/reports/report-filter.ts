import type { DateReference, InternalContext } from '@portal/contracts';
import { badRequest, type Queryable } from '@portal/core';
import { isoDay, parseDateRange, parseIdList, type DateRange } from '../scope/dates';
import { narrowToMerchant, resolveScope, scopeConditions, type Scope } from '../scope/scope';

/** Longest report range: three years of days (bounds every scan and series). */
export const MAX_RANGE_DAYS = 1100;

/** What every report call is narrowed by (spec 3 §7 common parameters), checked against the caller's scope. */
export interface ReportFilter {
  scope: Scope;
  range: DateRange;
  ref: DateReference;
  midId: number | null;
  currencyId: number | null;
  /** Processor ids (platforms and gateway), null = all. */
  processors: number[] | null;
  /** The tenant's latest chargeback day by each date reference, when looked up (report-range splitByMonth). */
  latest?: Record<DateReference, string | null>;
}

/** The latest day of the tenant's daily rollup by each date reference (two backward index probes). */
export async function latestDays(
  db: Queryable,
  tenant: string,
): Promise<Record<DateReference, string | null>> {
  const { rows } = await db.query<Record<DateReference, string | null>>(
    `select (select max(day) from cases.report_daily where tenant_id = $1 and ref = 1)::text as post,
       (select max(day) from cases.report_daily where tenant_id = $1 and ref = 2)::text as transaction`,
    [tenant],
  );
  return rows[0] ?? { post: null, transaction: null };
}

const days = (r: DateRange) => (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000;

/**
 * The range of a report: the default ends today; a future start is refused and a future end clamped
 * to today (the browser's day may be ahead of the server's); at most MAX_RANGE_DAYS.
 */
export function reportRange(value: string | undefined, fallback: DateRange, today = new Date()): DateRange {
  const todayIso = isoDay(today);
  const parsed = parseDateRange(value, 'date_range') ?? fallback;
  if (parsed.from > todayIso) throw badRequest('date_range: future dates are not allowed.');
  const r = { from: parsed.from, to: parsed.to > todayIso ? todayIso : parsed.to };
  if (days(r) > MAX_RANGE_DAYS) throw badRequest(`date_range may span at most ${MAX_RANGE_DAYS} days.`);
  return r;
}

/** The last `n` days up to today. */
export function lastDays(n: number, today = new Date()): DateRange {
  return { from: isoDay(new Date(today.getTime() - n * 86_400_000)), to: isoDay(today) };
}

/** The prior `n` whole months and the current one (the KPI default: prior 6 months). */
export function priorMonths(n: number, today = new Date()): DateRange {
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - n, 1));
  return { from: isoDay(from), to: isoDay(today) };
}

/** -1 and absence both mean 'all'. */
const anyId = (v: number | undefined): number | null => (v === undefined || v === -1 ? null : v);

/** The caller's scope, narrowed by the merchant switcher (checked: an outside merchant is a 400). */
export async function reportScope(db: Queryable, ctx: InternalContext, merchantId: number | undefined) {
  const id = anyId(merchantId);
  return narrowToMerchant(db, await resolveScope(db, ctx), id ?? undefined, 'merchant_id');
}

/** A MID filter must name a MID the caller may see; anything else is the same 400. */
async function checkMid(db: Queryable, scope: Scope, midId: number | null): Promise<void> {
  if (midId === null) return;
  const params: unknown[] = [];
  const where = scopeConditions(scope, 'mi', params).map((c) => c.replace('mi.mid_id', 'mi.id'));
  params.push(midId);
  const { rowCount } = await db.query(
    `select 1 from cases.mids mi where ${where.join(' and ')} and mi.id = $${params.length}`,
    params,
  );
  if (!rowCount) throw badRequest(`mid_id: MID ${midId} not found.`);
}

export async function buildFilter(
  db: Queryable,
  ctx: InternalContext,
  q: {
    merchant_id?: number;
    mid_id?: number;
    currency_id?: number;
    date_reference?: DateReference;
    date_range?: string;
    gateway_id?: number;
    platforms?: string;
  },
  fallback: DateRange,
): Promise<ReportFilter> {
  const scope = await reportScope(db, ctx, q.merchant_id);
  const midId = anyId(q.mid_id);
  await checkMid(db, scope, midId);
  const platforms = parseIdList(q.platforms);
  const gateway = anyId(q.gateway_id);
  let processors: number[] | null = platforms ?? null;
  if (gateway !== null) processors = processors ? processors.filter((p) => p === gateway) : [gateway];
  return {
    scope,
    range: reportRange(q.date_range, fallback),
    ref: q.date_reference ?? 'post',
    midId,
    currencyId: anyId(q.currency_id),
    processors,
    latest: await latestDays(db, scope.tenant),
  };
}

/** Collects query parameters and returns their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

interface Columns {
  day: string;
  currency: string;
  processor: string;
}

/**
 * Conditions of a filter on a table with tenant_id, merchant_id, mid_id (alias), a day column, a
 * currency and a processor column. `range` false leaves the dates to the caller.
 */
export function filterConditions(
  f: ReportFilter,
  alias: string,
  cols: Columns,
  p: Params,
  range: DateRange | false = f.range,
): string[] {
  const conditions = scopeConditions(f.scope, alias, p.values);
  if (range) conditions.push(`${cols.day} between ${p.add(range.from)}::date and ${p.add(range.to)}::date`);
  if (f.midId !== null) conditions.push(`${alias}.mid_id = ${p.add(f.midId)}`);
  if (f.currencyId !== null) conditions.push(`${cols.currency} = ${p.add(f.currencyId)}`);
  if (f.processors !== null) conditions.push(`${cols.processor} = any(${p.add(f.processors)}::int[])`);
  return conditions;
}

/**
 * The chargeback rollup (alias r) of a filter, by its date reference unless `ref` says otherwise;
 * `range` false: every day.
 */
export function rollupWhere(
  f: ReportFilter,
  p: Params,
  ref: DateReference = f.ref,
  range: DateRange | false = f.range,
): string {
  return [
    `r.ref = ${ref === 'post' ? 1 : 2}`,
    ...filterConditions(
      f,
      'r',
      { day: 'r.day', currency: 'r.currency_id', processor: 'r.processor_id' },
      p,
      range,
    ),
  ].join(' and ');
}

/** The daily sales (alias t) of a filter. */
export function salesWhere(f: ReportFilter, p: Params, range: DateRange = f.range): string {
  return filterConditions(
    f,
    't',
    { day: 't.day', currency: 't.currency_id', processor: 't.processor_id' },
    p,
    range,
  ).join(' and ');
}

/** The case rows (alias c) of a filter, by its date reference. */
export function casesWhere(f: ReportFilter, p: Params): string {
  const day = f.ref === 'post' ? 'c.date_post' : 'c.date_trans';
  return filterConditions(
    f,
    'c',
    { day, currency: 'c.dispute_currency_id', processor: 'coalesce(c.processor_id, 0)' },
    p,
  ).join(' and ');
}

/** count / base * 100 with two decimals; 0 without a base. */
export const percent = (count: number, base: number): number =>
  base > 0 ? Math.round((count / base) * 10_000) / 100 : 0;
