import type { DateReference } from '@portal/contracts';
import type { DateRange } from '../scope/dates';
import { filterConditions, rollupWhere, salesWhere, type Params, type ReportFilter } from './report-filter';

/**
 * A report range as whole months (read from the monthly rollups, migration 030) and the days at its edges
 * (read from the daily ones): the sums are the same, with about ten times fewer rows for a range of months.
 */
export interface MonthSplit {
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

/** Rows (m: first day of the month, n) of the chargebacks of the filter by month of the date reference. */
export function chargebacksByMonthSql(f: ReportFilter, p: Params, ref: DateReference): string {
  const { months, days } = splitByMonth(f.range);
  const parts = days.map(
    (range) =>
      `select date_trunc('month', r.day)::date as m, r.n from cases.report_daily r where ${rollupWhere(f, p, ref, range)}`,
  );
  if (months) {
    const where = filterConditions(
      f,
      'r',
      { day: 'r.month', currency: 'r.currency_id', processor: 'r.processor_id' },
      p,
      false,
    );
    parts.push(
      `select r.month as m, r.n from cases.report_monthly r where r.ref = ${ref === 'post' ? 1 : 2} and ${where.join(' and ')}
         and r.month between ${p.add(months.first)}::date and ${p.add(months.last)}::date`,
    );
  }
  return parts.join(' union all ');
}

/** Rows (m, n) of the transactions of the filter by month. */
export function salesByMonthSql(f: ReportFilter, p: Params): string {
  const { months, days } = splitByMonth(f.range);
  const parts = days.map(
    (range) =>
      `select date_trunc('month', t.day)::date as m, t.trans_count as n from cases.transactions_daily t
       where ${salesWhere(f, p, range)}`,
  );
  if (months) {
    const where = filterConditions(
      f,
      't',
      { day: 't.month', currency: 't.currency_id', processor: 't.processor_id' },
      p,
      false,
    );
    parts.push(
      `select t.month as m, t.trans_count as n from cases.transactions_monthly t where ${where.join(' and ')}
         and t.month between ${p.add(months.first)}::date and ${p.add(months.last)}::date`,
    );
  }
  return parts.join(' union all ');
}
