import type { MtdReport } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import { reportingCurrency } from '../money/money-report';
import { isoDay, type DateRange } from '../scope/dates';
import { Params, percent, rollupWhere, salesWhere, type ReportFilter } from './report-filter';

/**
 * Month-to-date report (issue 18; contents not shown in the spec): this month up to today against the
 * same days of the previous month (a month shorter than today's day of month stops at its end), for
 * the figures a dispute team watches: chargebacks and their amount, sales, the chargeback ratio, wins
 * and recovered amount, alerts; and the cumulative chargebacks by day of month for the chart.
 *
 * Money is in the tenant's reporting currency, as the money ledger has it (issue 33, migrations 040 and
 * 043): the chargeback and recovered amounts are the rollups' converted `disputed` and `recovered` (a Win's
 * recovered amount, partial recoveries included), so the recovered amount is the 'Recovered revenue'
 * section's for the same days; the sales amounts are converted by the ledger's rule (that of
 * cases.money_rate_of: the newest rate of the currency on or before the day). What has no rate is counted in
 * `unrated`, not summed.
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
  unrated: number;
  sales: number;
  salesAmount: number;
  salesUnrated: number;
  alerts: number;
}

interface DayRow {
  day: string;
  chargebacks: string | null;
  amount: string | null;
  won: string | null;
  recovered: string | null;
  unrated: string | null;
  sales: string | null;
  sales_amount: string | null;
  sales_unrated: string | null;
  alerts: string | null;
}

/**
 * The figures of every day from the previous period's first day to today, in one statement: each of
 * the three sources (chargeback day rows, daily sales, alerts) is read once for both periods and
 * grouped by day; the periods' totals and the cumulative chart are summed from these rows. Sales are
 * converted per day and currency by the rule of cases.money_rate_of (migration 040: 1 in the reporting
 * currency, else the newest rate on or before the day), written out here: a call of that function per
 * group (it is not inlined) cost a sixth of the statement.
 */
async function dayRows(db: Queryable, f: ReportFilter, span: DateRange): Promise<DayRow[]> {
  const p = new Params();
  const alertWhere = alertScopeConditions(f.scope, p.values);
  if (f.midId !== null) alertWhere.push(`ad.mid_id = ${p.add(f.midId)}`);
  if (f.currencyId !== null) alertWhere.push(`a.currency_id = ${p.add(f.currencyId)}`);
  const tenant = p.add(f.scope.tenant);
  const { rows } = await db.query<DayRow>(
    `with cb as (
       select r.day, sum(r.n) as chargebacks, sum(r.disputed) as amount, sum(r.v4) as won,
         sum(r.recovered) as recovered, sum(r.unrated) as unrated
       from cases.report_daily r where ${rollupWhere(f, p, 'post', span)} group by r.day),
     sc as (
       select t.day, t.currency_id, sum(t.trans_count) as sales, sum(t.trans_amount) as amount
       from cases.transactions_daily t where ${salesWhere(f, p, span)} group by 1, 2),
     rep as (
       select coalesce(
         (select m.reporting_currency_id from cases.money_settings m where m.tenant_id = ${tenant}), 1
       ) as id),
     s as (
       select sc.day, sum(sc.sales) as sales, sum(round(sc.amount * x.rate, 2)) as sales_amount,
         sum(case when x.rate is null then sc.sales else 0 end) as sales_unrated
       from sc cross join rep
       cross join lateral (
         select case when sc.currency_id = rep.id then 1::numeric else (
           select e.rate_to_reporting from cases.exchange_rates e
           where e.tenant_id = ${tenant} and e.currency_id = sc.currency_id and e.day <= sc.day
           order by e.day desc limit 1) end as rate) x
       group by sc.day),
     al as (
       select (a.alert_date at time zone 'UTC')::date as day, count(*) as alerts
       from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
       where ${alertWhere.join(' and ')}
         and a.alert_date >= (${p.add(span.from)}::date::timestamp at time zone 'UTC')
         and a.alert_date < ((${p.add(span.to)}::date + 1)::timestamp at time zone 'UTC')
       group by 1)
     select to_char(coalesce(cb.day, s.day, al.day), 'YYYY-MM-DD') as day, cb.chargebacks, cb.amount, cb.won,
       cb.recovered, cb.unrated, s.sales, s.sales_amount, s.sales_unrated, al.alerts
     from cb full join s on s.day = cb.day full join al on al.day = coalesce(cb.day, s.day)`,
    p.values,
  );
  return rows;
}

function totals(rows: DayRow[], range: DateRange): Totals {
  const t: Totals = {
    chargebacks: 0,
    amount: 0,
    won: 0,
    recovered: 0,
    unrated: 0,
    sales: 0,
    salesAmount: 0,
    salesUnrated: 0,
    alerts: 0,
  };
  for (const r of rows) {
    if (r.day < range.from || r.day > range.to) continue;
    t.chargebacks += Number(r.chargebacks ?? 0);
    t.amount += Number(r.amount ?? 0);
    t.won += Number(r.won ?? 0);
    t.recovered += Number(r.recovered ?? 0);
    t.unrated += Number(r.unrated ?? 0);
    t.sales += Number(r.sales ?? 0);
    t.salesAmount += Number(r.sales_amount ?? 0);
    t.salesUnrated += Number(r.sales_unrated ?? 0);
    t.alerts += Number(r.alerts ?? 0);
  }
  return t;
}

/** Chargebacks by day of month within the range. */
function byDayOfMonth(rows: DayRow[], range: DateRange): Map<number, number> {
  const days = new Map<number, number>();
  for (const r of rows)
    if (r.day >= range.from && r.day <= range.to && r.chargebacks !== null) {
      const d = Number(r.day.slice(8, 10));
      days.set(d, (days.get(d) ?? 0) + Number(r.chargebacks));
    }
  return days;
}

const change = (current: number, previous: number) =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 100;
const money = (v: number) => Math.round(v * 100) / 100;

export async function monthToDate(db: Queryable, f: ReportFilter, today = new Date()): Promise<MtdReport> {
  const { current, previous } = mtdPeriods(today);
  const [rows, currency] = await Promise.all([
    dayRows(db, f, { from: previous.from, to: current.to }),
    reportingCurrency(db, f.scope.tenant),
  ]);
  const [cur, prev] = [totals(rows, current), totals(rows, previous)];
  const [curDays, prevDays] = [byDayOfMonth(rows, current), byDayOfMonth(rows, previous)];
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
    currency,
    unrated: {
      chargebacks: { current: cur.unrated, previous: prev.unrated },
      transactions: { current: cur.salesUnrated, previous: prev.salesUnrated },
    },
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
