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

export function splitByMonth(range: DateRange): MonthSplit {
  const from = utc(range.from);
  const to = utc(range.to);
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
): string {
  const { months, days } = splitByMonth(range);
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

/** Rows (m, n) of the chargebacks of the filter by month of the date reference. */
export const chargebacksByMonthSql = (f: ReportFilter, p: Params, ref: DateReference): string =>
  byMonthSql(f.range, p, {
    days: (edge) =>
      `select date_trunc('month', r.day)::date as m, r.n from cases.report_daily r where ${rollupWhere(f, p, ref, edge)}`,
    months: (first, last) =>
      `select r.month as m, r.n from cases.report_monthly r
       where r.ref = ${ref === 'post' ? 1 : 2} and ${monthlyWhere(f, 'r', p)} and r.month between ${first} and ${last}`,
  });

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
 * Rows of the chargeback rollups of a filter with `columns` (of alias r, in both rollups: the filter's
 * dimensions and the counters): whole months from report_monthly, the days at the range's edges from
 * report_daily; `range` false: every month.
 */
export function rollupRowsSql(
  f: ReportFilter,
  p: Params,
  columns: string,
  ref: DateReference = f.ref,
  range: DateRange | false = f.range,
): string {
  const monthly = (months: string) =>
    `select ${columns} from cases.report_monthly r
     where r.ref = ${ref === 'post' ? 1 : 2} and ${monthlyWhere(f, 'r', p)}${months}`;
  if (!range) return monthly('');
  return byMonthSql(range, p, {
    days: (edge) => `select ${columns} from cases.report_daily r where ${rollupWhere(f, p, ref, edge)}`,
    months: (first, last) => monthly(` and r.month between ${first} and ${last}`),
  });
}
