import type { MtdReport } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import { isoDay, type DateRange } from '../scope/dates';
import { Params, percent, rollupWhere, salesWhere, type ReportFilter } from './report-filter';

/**
 * Month-to-date report (issue 18; contents not shown in the spec): this month up to today against the
 * same days of the previous month (a month shorter than today's day of month stops at its end), for
 * the figures a dispute team watches: chargebacks and their amount, sales, the chargeback ratio, wins
 * and recovered amount, alerts; and the cumulative chargebacks by day of month for the chart.
 */
function mtdPeriods(today = new Date()): { current: DateRange; previous: DateRange } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const prevEnd = new Date(Date.UTC(y, m, 0));
  const day = Math.min(today.getUTCDate(), prevEnd.getUTCDate());
  return {
    current: { from: isoDay(new Date(Date.UTC(y, m, 1))), to: isoDay(today) },
    previous: {
      from: isoDay(new Date(Date.UTC(y, m - 1, 1))),
      to: isoDay(new Date(Date.UTC(y, m - 1, day))),
    },
  };
}

interface Totals {
  chargebacks: number;
  amount: number;
  won: number;
  recovered: number;
  sales: number;
  salesAmount: number;
  alerts: number;
}

async function totals(db: Queryable, f: ReportFilter, range: DateRange): Promise<Totals> {
  const p = new Params();
  const alertWhere = alertScopeConditions(f.scope, p.values);
  if (f.midId !== null) alertWhere.push(`ad.mid_id = ${p.add(f.midId)}`);
  if (f.currencyId !== null) alertWhere.push(`a.currency_id = ${p.add(f.currencyId)}`);
  const { rows } = await db.query<Record<string, string | null>>(
    `select cb.*, s.*, al.* from
       (select coalesce(sum(r.n), 0) as chargebacks, coalesce(sum(r.amount), 0) as amount, coalesce(sum(r.v4), 0) as won,
          coalesce(sum(r.won_amount), 0) as recovered
        from cases.report_daily r where ${rollupWhere(f, p, 'post', range)}) cb,
       (select coalesce(sum(t.trans_count), 0) as sales, coalesce(sum(t.trans_amount), 0) as sales_amount
        from cases.transactions_daily t where ${salesWhere(f, p, range)}) s,
       (select count(*) as alerts from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
        where ${alertWhere.join(' and ')} and a.alert_date >= ${p.add(range.from)}::date
          and a.alert_date < ${p.add(range.to)}::date + 1) al`,
    p.values,
  );
  const r = rows[0] ?? {};
  const n = (k: string) => Number(r[k] ?? 0);
  return {
    chargebacks: n('chargebacks'),
    amount: n('amount'),
    won: n('won'),
    recovered: n('recovered'),
    sales: n('sales'),
    salesAmount: n('sales_amount'),
    alerts: n('alerts'),
  };
}

async function cumulative(db: Queryable, f: ReportFilter, range: DateRange): Promise<Map<number, number>> {
  const p = new Params();
  const { rows } = await db.query<{ d: number; n: string }>(
    `select extract(day from r.day)::int as d, sum(r.n) as n from cases.report_daily r
     where ${rollupWhere(f, p, 'post', range)} group by 1`,
    p.values,
  );
  return new Map(rows.map((r) => [Number(r.d), Number(r.n)]));
}

const change = (current: number, previous: number) =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 100;
const money = (v: number) => Math.round(v * 100) / 100;

export async function monthToDate(db: Queryable, f: ReportFilter, today = new Date()): Promise<MtdReport> {
  const { current, previous } = mtdPeriods(today);
  const [cur, prev, curDays, prevDays] = await Promise.all([
    totals(db, f, current),
    totals(db, f, previous),
    cumulative(db, f, current),
    cumulative(db, f, previous),
  ]);
  const metric = (key: string, label: string, c: number, p: number, isMoney = false) => ({
    key,
    label,
    current: isMoney ? money(c) : c,
    previous: isMoney ? money(p) : p,
    change: change(c, p),
    money: isMoney,
  });
  const days = Number(current.to.slice(8, 10));
  const daily: MtdReport['daily'] = [];
  let c = 0;
  let p = 0;
  for (let d = 1; d <= days; d++) {
    c += curDays.get(d) ?? 0;
    p += prevDays.get(d) ?? 0;
    daily.push({ day: d, current: c, previous: p });
  }
  return {
    current,
    previous,
    metrics: [
      metric('chargebacks', 'Chargebacks', cur.chargebacks, prev.chargebacks),
      metric('chargeback_amount', 'Chargeback amount', cur.amount, prev.amount, true),
      metric('transactions', 'Transactions', cur.sales, prev.sales),
      metric('transaction_amount', 'Transaction amount', cur.salesAmount, prev.salesAmount, true),
      metric(
        'ratio',
        'Chargeback ratio %',
        percent(cur.chargebacks, cur.sales),
        percent(prev.chargebacks, prev.sales),
      ),
      metric('won', 'Won', cur.won, prev.won),
      metric('recovered', 'Recovered amount', cur.recovered, prev.recovered, true),
      metric('alerts', 'Alerts', cur.alerts, prev.alerts),
    ],
    daily,
  };
}
