import type {
  PlatformCardRows,
  ReportRow,
  ReportRows,
  ReportSeries,
  StatusTotalsReport,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { scopeConditions } from '../scope/scope';
import { casesWhere, Params, percent, rollupWhere, salesWhere, type ReportFilter } from './report-filter';
import {
  chargebacksByMonthSql,
  groupedRowsSql,
  totalsRowsSql,
  salesByMonthSql,
  type RollupGroup,
} from './report-range';

/**
 * The charts of the /reports page (spec 3 §2 Reports, §7). Counts and amounts come from the daily
 * rollup (cases.report_daily); the BIN/issuer and repeat-customer charts read the cases of the date
 * window from a covering index (they need the card of each case).
 */

interface Slice {
  key: string;
  label: string;
  count: number;
  amount: number;
}

function toRows(slices: Slice[], total: number, limit: number | null): ReportRows {
  const data: ReportRow[] = slices
    .filter((s) => s.count > 0)
    .slice(0, limit ?? undefined)
    .map((s) => ({ ...s, amount: Math.round(s.amount * 100) / 100, percent: percent(s.count, total) }));
  return { total, data };
}

const num = (v: unknown) => Number(v ?? 0);

async function slices(db: Queryable, sql: string, params: unknown[]): Promise<Slice[]> {
  const { rows } = await db.query<{ key: string; label: string; count: string; amount: string }>(sql, params);
  return rows.map((r) => ({
    key: String(r.key),
    label: r.label,
    count: num(r.count),
    amount: num(r.amount),
  }));
}

async function rollupTotal(db: Queryable, f: ReportFilter): Promise<number> {
  const p = new Params();
  const { rows } = await db.query<{ n: string }>(
    `select coalesce(sum(r.n), 0) as n from (${totalsRowsSql(f, p, 'r.n')}) r`,
    p.values,
  );
  return num(rows[0]?.n);
}

/** Slices of a grouping of the rollups joined to its names, largest first. */
async function byKey(
  db: Queryable,
  f: ReportFilter,
  group: RollupGroup,
  label: string,
  join: string,
  limit: number | null,
): Promise<ReportRows> {
  const p = new Params();
  const rows = groupedRowsSql(f, p, group, 'r.n, r.amount');
  const list = await slices(
    db,
    `select x.key, ${label} as label, x.count, x.amount from (
       select r.key, sum(r.n) as count, sum(r.amount) as amount from (${rows}) r group by 1
     ) x ${join}
     order by x.count desc, x.key`,
    p.values,
  );
  return toRows(
    list,
    list.reduce((s, x) => s + x.count, 0),
    limit,
  );
}

/** Slices of counter columns of the rollup (status groups, verdicts, bands), in a fixed order or largest first. */
async function byCounters(
  db: Queryable,
  f: ReportFilter,
  counters: Array<{ key: string; column: string; label: string }>,
  order: 'fixed' | 'largest',
  limit: number | null,
): Promise<ReportRows> {
  const p = new Params();
  const { rows } = await db.query<Record<string, string>>(
    `select ${counters.map((c) => `coalesce(sum(r.${c.column}), 0) as ${c.column}`).join(', ')}
     from (${totalsRowsSql(f, p, counters.map((c) => `r.${c.column}`).join(', '))}) r`,
    p.values,
  );
  const row = rows[0] ?? {};
  const list = counters.map((c) => ({ key: c.key, label: c.label, count: num(row[c.column]), amount: 0 }));
  if (order === 'largest') list.sort((a, b) => b.count - a.count);
  return toRows(
    list,
    list.reduce((s, x) => s + x.count, 0),
    limit,
  );
}

export const cardType = (db: Queryable, f: ReportFilter, limit: number) =>
  byKey(db, f, 'card_type', 'ct.name', 'join cases.card_types ct on ct.id = x.key', limit);

export const reasonCodes = (db: Queryable, f: ReportFilter, limit: number) =>
  byKey(
    db,
    f,
    'reason_code',
    `rc.code || ' - ' || rc.description`,
    'join cases.reason_codes rc on rc.id = x.key',
    limit,
  );

export const byPlatform = (db: Queryable, f: ReportFilter, limit: number) =>
  byKey(
    db,
    f,
    { column: 'r.processor_id' },
    `coalesce(pr.name, 'Unknown')`,
    'left join cases.processors pr on pr.id = x.key',
    limit,
  );

export const locationType = (db: Queryable, f: ReportFilter, limit: number) =>
  byKey(
    db,
    f,
    'location',
    `case x.key when 1 then 'Domestic' when 2 then 'Offshore' else 'Unknown' end`,
    '',
    limit,
  );

/**
 * Case status groups; spec 1 §3.3 names (New, In Progress, Completed, Expired, Do Not Represent), every
 * group even when empty (the chargebacks list shows all five). `allTime`: no date window; then, unless
 * a currency or processor narrows it, the counts come from cases.case_counts (per MID and status, kept by
 * the lists' triggers: a few thousand rows for a whole tenant instead of one rollup row per case).
 */
export async function statusTotals(
  db: Queryable,
  f: ReportFilter,
  allTime: boolean,
): Promise<StatusTotalsReport> {
  const { rows: groups } = await db.query<{ id: number; name: string }>(
    'select id, name from cases.status_groups order by id',
  );
  const p = new Params();
  // By post date every case counts (ref 2 leaves out the cases without a transaction date).
  const fromCounts = allTime && f.ref === 'post' && f.currencyId === null && f.processors === null;
  const countsWhere = () => {
    const where = scopeConditions(f.scope, 'k', p.values);
    if (f.midId !== null) where.push(`k.mid_id = ${p.add(f.midId)}`);
    return where.join(' and ');
  };
  // The rollup's five counters are summed as columns: unpivoting them first (a row per group and
  // rollup row) made this the costliest report statement under load.
  const sql = fromCounts
    ? `select st.status_group_id as g, coalesce(sum(k.n), 0) as n
       from cases.case_counts k join cases.statuses st on st.id = k.status_id
       where ${countsWhere()} group by 1`
    : `select x.g, x.n from (
         select sum(r.s1) as s1, sum(r.s2) as s2, sum(r.s3) as s3, sum(r.s4) as s4, sum(r.s5) as s5
         from (${totalsRowsSql(f, p, 'r.s1, r.s2, r.s3, r.s4, r.s5', f.ref, allTime ? false : f.range)}) r
       ) t cross join lateral (values (1, t.s1), (2, t.s2), (3, t.s3), (4, t.s4), (5, t.s5)) x(g, n)`;
  const { rows } = await db.query<{ g: number; n: string }>(sql, p.values);
  const count = (id: number) => num(rows.find((r) => Number(r.g) === id)?.n);
  const total = groups.reduce((s, g) => s + count(g.id), 0);
  return {
    total,
    data: groups.map((g) => ({
      key: String(g.id),
      label: g.name,
      count: count(g.id),
      amount: 0,
      percent: percent(count(g.id), total),
      status_group_id: g.id,
      status_group: g.name,
    })),
  };
}

/** Verdicts (win/loss chart), largest first. */
export async function verdicts(db: Queryable, f: ReportFilter, limit: number): Promise<ReportRows> {
  const { rows } = await db.query<{ id: number; name: string }>(
    'select id, name from cases.verdicts order by id',
  );
  return byCounters(
    db,
    f,
    rows.map((v) => ({ key: String(v.id), column: `v${v.id}`, label: v.name })),
    'largest',
    limit,
  );
}

/** Transaction amount bands of the rollup (b1..b6), in order. */
const AMOUNT_BANDS = ['$0-25', '$25-50', '$50-100', '$100-250', '$250-500', '$500+'] as const;

export const amountRanges = (db: Queryable, f: ReportFilter) =>
  byCounters(
    db,
    f,
    AMOUNT_BANDS.map((label, i) => ({ key: String(i + 1), column: `b${i + 1}`, label })),
    'fixed',
    null,
  );

/** Top BINs or issuers (from the cases of the window; their issuer from cases.issuer_bins). */
export async function byIssuer(
  db: Queryable,
  f: ReportFilter,
  limit: number,
  label: 'bin' | 'issuer',
): Promise<ReportRows> {
  const p = new Params();
  const key = label === 'bin' ? 'c.cc_bin' : `coalesce(ib.issuer_name, 'Unknown')`;
  const where = casesWhere(f, p);
  const [list, total] = await Promise.all([
    slices(
      db,
      `select ${key} as key, ${key} as label, count(*) as count, 0 as amount
       from cases.cases c ${label === 'issuer' ? 'left join cases.issuer_bins ib on ib.bin = c.cc_bin' : ''}
       where ${where} and c.cc_bin is not null
       group by 1 order by count(*) desc, 1 limit ${p.add(limit)}`,
      p.values,
    ),
    rollupTotal(db, f),
  ]);
  return toRows(list, total, null);
}

/** Card type share of each of the top platforms' chargebacks (stacked bars). */
export async function platformCardTypes(
  db: Queryable,
  f: ReportFilter,
  limit: number,
): Promise<PlatformCardRows> {
  const p = new Params();
  const { rows } = await db.query<{
    platform: string;
    card_type: string;
    count: string;
    platform_total: string;
  }>(
    `with x as (
       select r.processor_id, r.card_type_id, sum(r.n) as n from cases.report_daily r where ${rollupWhere(f, p)} group by 1, 2
     ),
     top as (select processor_id, sum(n) as total from x group by 1 having sum(n) > 0 order by 2 desc, 1 limit ${p.add(limit)})
     select coalesce(pr.name, 'Unknown') as platform, ct.name as card_type, x.n as count, top.total as platform_total
     from x join top using (processor_id)
     left join cases.processors pr on pr.id = x.processor_id
     join cases.card_types ct on ct.id = x.card_type_id
     where x.n > 0
     order by top.total desc, x.processor_id, x.card_type_id`,
    p.values,
  );
  return {
    data: rows.map((r) => ({
      platform: r.platform,
      card_type: r.card_type,
      count: num(r.count),
      percent: percent(num(r.count), num(r.platform_total)),
    })),
  };
}

type Period = 'month' | 'week';

/** Period starts covering the range (weeks start on Monday). */
export const periods = (unit: Period, p: Params, f: ReportFilter) =>
  `generate_series(date_trunc('${unit}', ${p.add(f.range.from)}::date), ${p.add(f.range.to)}::date, interval '1 ${unit}')`;

/**
 * Chargebacks (counted by the date reference's period) against the transactions of the same period,
 * one row per period of the range ('YYYY-MM-DD', its first day), empty periods as 0. By month, whole
 * months come from the monthly rollups.
 */
export async function chargebacksOverSales(
  db: Queryable,
  f: ReportFilter,
  unit: Period,
  reference: 'post' | 'transaction',
): Promise<Array<{ period: string; count: number; base: number }>> {
  const p = new Params();
  const series = periods(unit, p, f);
  const chargebacks =
    unit === 'month'
      ? chargebacksByMonthSql(f, p, reference)
      : `select date_trunc('week', r.day) as m, r.n from cases.report_daily r where ${rollupWhere(f, p, reference)}`;
  const sales =
    unit === 'month'
      ? salesByMonthSql(f, p)
      : `select date_trunc('week', t.day) as m, t.trans_count as n from cases.transactions_daily t where ${salesWhere(f, p)}`;
  const { rows } = await db.query<{ period: string; count: string; base: string }>(
    `select to_char(g, 'YYYY-MM-DD') as period, coalesce(cb.n, 0) as count, coalesce(s.n, 0) as base
     from ${series} g
     left join (select x.m, sum(x.n) as n from (${chargebacks}) x group by 1) cb on cb.m = g
     left join (select x.m, sum(x.n) as n from (${sales}) x group by 1) s on s.m = g
     order by g`,
    p.values,
  );
  return rows.map((r) => ({ period: r.period, count: num(r.count), base: num(r.base) }));
}

/**
 * Chargebacks against transactions by transaction month or week: the chargebacks of sales made in the
 * period over those sales.
 */
export async function ratioByTransactionPeriod(
  db: Queryable,
  f: ReportFilter,
  unit: Period,
): Promise<ReportSeries> {
  const rows = await chargebacksOverSales(db, f, unit, 'transaction');
  return { data: rows.map((r) => ({ ...r, percent: percent(r.count, r.base) })) };
}

/** Average days between transaction and post date, by week of the date reference. */
export async function spanByWeek(db: Queryable, f: ReportFilter): Promise<ReportSeries> {
  const p = new Params();
  const { rows } = await db.query<{ period: string; days: string; n: string; total: string }>(
    `select to_char(g, 'YYYY-MM-DD') as period, coalesce(x.days, 0) as days, coalesce(x.n, 0) as n,
       coalesce(x.total, 0) as total
     from ${periods('week', p, f)} g
     left join (select date_trunc('week', r.day) as d, sum(r.span_days) as days, sum(r.span_n) as n, sum(r.n) as total
                from cases.report_daily r where ${rollupWhere(f, p)} group by 1) x on x.d = g
     order by g`,
    p.values,
  );
  return {
    data: rows.map((r) => ({
      period: r.period,
      count: num(r.n),
      base: num(r.total),
      percent: percent(num(r.n), num(r.total)),
      average: num(r.n) > 0 ? Math.round((num(r.days) / num(r.n)) * 100) / 100 : 0,
    })),
  };
}

/**
 * Chargebacks from non-unique customers by week: a customer is a card (BIN and last four digits) at a
 * merchant; non-unique when it has more than one chargeback in the selection. Only cases flagged
 * repeat_card (their card has more than one chargeback at all, migration 031) can be, so only those are
 * grouped by card; the week's total is a count over the date index alone.
 */
export async function nonUniqueCustomers(db: Queryable, f: ReportFilter): Promise<ReportSeries> {
  const day = f.ref === 'post' ? 'c.date_post' : 'c.date_trans';
  // Two statements on two connections, so the week totals and the repeat cards are counted side by side.
  const weeks = (sql: (p: Params) => string) => {
    const p = new Params();
    const text = sql(p);
    return db.query<{ period: string; n: string }>(text, p.values);
  };
  const [repeat, base] = await Promise.all([
    weeks(
      (p) => `with w as (
         select c.merchant_id, c.cc_bin, c.cc_last_four, ${day} as d from cases.cases c
         where ${casesWhere(f, p)} and c.repeat_card
       ),
       k as (select merchant_id, cc_bin, cc_last_four from w group by 1, 2, 3 having count(*) > 1),
       x as (select date_trunc('week', w.d) as d, count(*) as n from w join k using (merchant_id, cc_bin, cc_last_four) group by 1)
       select to_char(g, 'YYYY-MM-DD') as period, coalesce(x.n, 0) as n
       from ${periods('week', p, f)} g left join x on x.d = g order by g`,
    ),
    weeks(
      (p) => `select to_char(date_trunc('week', ${day}), 'YYYY-MM-DD') as period, count(*) as n
       from cases.cases c where ${casesWhere(f, p)} group by 1`,
    ),
  ]);
  const totals = new Map(base.rows.map((r) => [r.period, num(r.n)]));
  return {
    data: repeat.rows.map((r) => {
      const total = totals.get(r.period) ?? 0;
      return { period: r.period, count: num(r.n), base: total, percent: percent(num(r.n), total) };
    }),
  };
}
