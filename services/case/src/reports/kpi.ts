import type { KpiAlerts, KpiChargebacks } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import { chargebacksOverSales, periods } from './charts';
import { Params, percent, type ReportFilter } from './report-filter';
import { byMonthSql, chargebacksByMonthSql } from './report-range';

/**
 * Resultant KPI (spec 3 §2): per month of the range, chargebacks (by post month) against transactions,
 * and alerts against chargebacks. `currency_id` and `platform_id` narrow both sides.
 */

export async function kpiChargebacks(db: Queryable, f: ReportFilter): Promise<KpiChargebacks> {
  const rows = await chargebacksOverSales(db, f, 'month', 'post');
  return {
    data: rows.map((r) => ({
      month: r.period.slice(0, 7),
      chargebacks: r.count,
      transactions: r.base,
      result_ratio: percent(r.count, r.base),
    })),
  };
}

/** Alert conditions of the filter (alias a: the alerts, or their monthly rollup; ad: their descriptor). */
function alertConditions(f: ReportFilter, p: Params): string[] {
  const where = alertScopeConditions(f.scope, p.values);
  if (f.currencyId !== null) where.push(`a.currency_id = ${p.add(f.currencyId)}`);
  if (f.processors !== null)
    where.push(
      `exists (select 1 from cases.mids mi where mi.id = ad.mid_id and mi.processor_id = any(${p.add(f.processors)}::int[]))`,
    );
  return where;
}

/** Rows (m, n) of the alerts of the filter by UTC month: whole months from cases.alert_monthly. */
function alertsByMonthSql(f: ReportFilter, p: Params): string {
  return byMonthSql(f.range, p, {
    days: (edge) =>
      `select date_trunc('month', a.alert_date at time zone 'UTC')::date as m, 1 as n
       from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
       where ${alertConditions(f, p).join(' and ')}
         and a.alert_date >= ${p.add(edge.from)}::date and a.alert_date < ${p.add(edge.to)}::date + 1`,
    months: (first, last) =>
      `select a.month as m, a.n from cases.alert_monthly a join cases.alert_descriptors ad on ad.id = a.descriptor_id
       where ${alertConditions(f, p).join(' and ')} and a.month between ${first} and ${last}`,
  });
}

export async function kpiAlerts(db: Queryable, f: ReportFilter): Promise<KpiAlerts> {
  const p = new Params();
  const series = periods('month', p, f);
  const { rows } = await db.query<{ month: string; alerts: string; chargebacks: string }>(
    `select to_char(g, 'YYYY-MM') as month, coalesce(al.n, 0) as alerts, coalesce(cb.n, 0) as chargebacks
     from ${series} g
     left join (select x.m, sum(x.n) as n from (${chargebacksByMonthSql(f, p, 'post')}) x group by 1) cb on cb.m = g
     left join (select x.m, sum(x.n) as n from (${alertsByMonthSql(f, p)}) x group by 1) al on al.m = g
     order by g`,
    p.values,
  );
  return {
    data: rows.map((r) => ({
      month: r.month,
      alert_total: Number(r.alerts),
      chargeback_total: Number(r.chargebacks),
      total: Number(r.alerts) + Number(r.chargebacks),
    })),
  };
}
