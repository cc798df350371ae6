import type { DateReference } from '@portal/contracts';
import type { DateRange } from '../scope/dates';
import { filterConditions, rollupWhere, salesWhere, type Params, type ReportFilter } from './report-filter';

/**
 * A report range as whole months (read from the monthly rollups, migration 030) and the days at its edges
 * (read from the daily ones): the sums are the same, with about ten times fewer rows for a range of months.
 */
interface MonthSplit {
  /** First days of the first and last whole month; null when the range holds no whole month. */
  months: { first: string; last: string } | null;
  /** The days before the first and after the last whole month (the whole range when there is none). */
  days: DateRange[];
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);
const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));
const dayBefore = (d: Date) => new Date(d.getTime() - 86_400_000);

/**
 * `latest`: the latest day with chargebacks of the tenant (by the date reference read). When the range
 * reaches it, nothing is dated after the range's end, so its last month is read whole (the days of this
 * month so far are the rollup's busiest rows, and ranges mostly end today).
 */
export function splitByMonth(range: DateRange, latest: string | null = null): MonthSplit {
  const from = utc(range.from);
  const to = latest !== null && latest <= range.to ? dayBefore(monthStart(utc(range.to), 1)) : utc(range.to);
  const first = from.getUTCDate() === 1 ? from : monthStart(from, 1);
  // The last whole month ends on `to` or before it.
  const afterTo = new Date(to.getTime() + 86_400_000);
  const last = afterTo.getUTCDate() === 1 ? monthStart(to) : monthStart(to, -1);
  if (first > last) return { months: null, days: [range] };
  const days: DateRange[] = [];
  if (from < first) days.push({ from: range.from, to: day(dayBefore(first)) });
  const end = monthStart(last, 1);
  if (end <= to) days.push({ from: day(end), to: range.to });
  return { months: { first: day(first), last: day(last) }, days };
}

/**
 * One union of rows (m: first day of the month, n) for a range: `days(range)` for each edge and
 * `months(first, last)` (their placeholders) for the whole months, when there are any.
 */
export function byMonthSql(
  range: DateRange,
  p: Params,
  parts: { days: (edge: DateRange) => string; months: (first: string, last: string) => string },
  latest: string | null = null,
): string {
  const { months, days } = splitByMonth(range, latest);
  const sql = days.map(parts.days);
  if (months) sql.push(parts.months(`${p.add(months.first)}::date`, `${p.add(months.last)}::date`));
  return sql.join(' union all ');
}

/** The filter's conditions on a monthly rollup (alias with merchant, MID, currency and processor columns). */
export const monthlyWhere = (f: ReportFilter, alias: string, p: Params) =>
  filterConditions(
    f,
    alias,
    { day: `${alias}.month`, currency: `${alias}.currency_id`, processor: `${alias}.processor_id` },
    p,
    false,
  ).join(' and ');

/** The filter's latest chargeback day by a date reference, when known (see splitByMonth). */
export const latestDay = (f: ReportFilter, ref: DateReference): string | null => f.latest?.[ref] ?? null;

const refId = (ref: DateReference) => (ref === 'post' ? 1 : 2);

/** The keys of report_monthly_key (migration 042): dimensions the monthly rollup does not keep. */
export type RollupKey = 'reason_code' | 'card_type' | 'location';
const ROLLUP_KEYS: Record<RollupKey, { dim: number; column: string }> = {
  reason_code: { dim: 1, column: 'r.reason_code_id' },
  card_type: { dim: 2, column: 'r.card_type_id' },
  location: { dim: 3, column: 'r.location' },
};

/** report_monthly_key holds whole tenants: a filter with no narrower scope and no MID, currency or processor. */
const wholeTenant = (f: ReportFilter) =>
  f.scope.merchantIds === null &&
  f.scope.midsAllowed === null &&
  f.scope.midsExcluded.length === 0 &&
  f.midId === null &&
  f.currencyId === null &&
  f.processors === null;

/** `table r where ...` of a filter's monthly rows, built only when months are read (its parameters with it). */
type MonthlyFrom = () => string;

const monthlyRollup =
  (f: ReportFilter, p: Params, ref: DateReference): MonthlyFrom =>
  () =>
    `cases.report_monthly r where r.ref = ${refId(ref)} and ${monthlyWhere(f, 'r', p)}`;

const keyRollup =
  (f: ReportFilter, p: Params, ref: DateReference, key: RollupKey): MonthlyFrom =>
  () =>
    `cases.report_monthly_key_all r where r.tenant_id = ${p.add(f.scope.tenant)} and r.ref = ${refId(ref)}
       and r.dim = ${ROLLUP_KEYS[key].dim}`;

/**
 * Sums that need no merchant, MID, currency or processor column: for the whole tenant, its location rows in
 * report_monthly_key (three a month, together the month; report_monthly has a row per MID and month).
 */
const totalsRollup = (f: ReportFilter, p: Params, ref: DateReference): MonthlyFrom =>
  wholeTenant(f) ? keyRollup(f, p, ref, 'location') : monthlyRollup(f, p, ref);

/**
 * Rows of the chargeback rollups (alias r): whole months from `monthly`, the days at the range's edges from
 * report_daily; `range` false: every month. `columns` of the day and of the month rows.
 */
function rowsSql(
  f: ReportFilter,
  p: Params,
  columns: { days: string; months: string },
  ref: DateReference,
  range: DateRange | false,
  monthly: MonthlyFrom,
): string {
  const months = (between: string) => `select ${columns.months} from ${monthly()}${between}`;
  if (!range) return months('');
  return byMonthSql(
    range,
    p,
    {
      days: (edge) =>
        `select ${columns.days} from cases.report_daily r where ${rollupWhere(f, p, ref, edge)}`,
      months: (first, last) => months(` and r.month between ${first} and ${last}`),
    },
    latestDay(f, ref),
  );
}

/**
 * Rows of the chargeback rollups of a filter with `columns` (of alias r, in both rollups: the filter's
 * dimensions and the counters): whole months from report_monthly, the days at the range's edges from
 * report_daily; `range` false: every month.
 */
export const rollupRowsSql = (
  f: ReportFilter,
  p: Params,
  columns: string,
  ref: DateReference = f.ref,
  range: DateRange | false = f.range,
): string => rowsSql(f, p, { days: columns, months: columns }, ref, range, monthlyRollup(f, p, ref));

/** Rows of `counters` only (alias r, no dimension column) of a filter, as rollupRowsSql; fewer for a whole tenant. */
export const totalsRowsSql = (
  f: ReportFilter,
  p: Params,
  counters: string,
  ref: DateReference = f.ref,
  range: DateRange | false = f.range,
): string => rowsSql(f, p, { days: counters, months: counters }, ref, range, totalsRollup(f, p, ref));

/** Rows (m: first day of the month, then `counters` of alias r) of a filter by month of the date reference. */
export const monthRowsSql = (
  f: ReportFilter,
  p: Params,
  counters: string,
  ref: DateReference = f.ref,
): string =>
  rowsSql(
    f,
    p,
    { days: `date_trunc('month', r.day)::date as m, ${counters}`, months: `r.month as m, ${counters}` },
    ref,
    f.range,
    totalsRollup(f, p, ref),
  );

/** Rows (m, n) of the chargebacks of the filter by month of the date reference. */
export const chargebacksByMonthSql = (f: ReportFilter, p: Params, ref: DateReference): string =>
  monthRowsSql(f, p, 'r.n', ref);

/** Rows (m, n) of the transactions of the filter by month. */
export const salesByMonthSql = (f: ReportFilter, p: Params): string =>
  byMonthSql(f.range, p, {
    days: (edge) =>
      `select date_trunc('month', t.day)::date as m, t.trans_count as n from cases.transactions_daily t
       where ${salesWhere(f, p, edge)}`,
    months: (first, last) =>
      `select t.month as m, t.trans_count as n from cases.transactions_monthly t
       where ${monthlyWhere(f, 't', p)} and t.month between ${first} and ${last}`,
  });

/**
 * Rows (key, then `counters` of alias r) of a filter grouped by reason code, card type or location: for the
 * whole tenant, whole months from report_monthly_key and the days at the edges from report_daily; for a
 * narrower filter, its day rows (found by the merchant or MID index).
 */
export function keyedRowsSql(f: ReportFilter, p: Params, key: RollupKey, counters: string): string {
  const { column } = ROLLUP_KEYS[key];
  const days = `${column} as key, ${counters}`;
  if (!wholeTenant(f)) return `select ${days} from cases.report_daily r where ${rollupWhere(f, p)}`;
  return rowsSql(f, p, { days, months: `r.key, ${counters}` }, f.ref, f.range, keyRollup(f, p, f.ref, key));
}

/** A grouping of the chargeback rollups: a column both rollups keep (processor, merchant, MID) or a key of 042. */
export type RollupGroup = { column: string } | RollupKey;

/** Rows (key, then `counters` of alias r) of a filter grouped by `group`, from the rollups that hold it. */
export const groupedRowsSql = (f: ReportFilter, p: Params, group: RollupGroup, counters: string): string =>
  typeof group === 'string'
    ? keyedRowsSql(f, p, group, counters)
    : rollupRowsSql(f, p, `${group.column} as key, ${counters}`);
