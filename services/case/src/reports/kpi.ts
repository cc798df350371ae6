import type { KpiAlerts, KpiChargebacks } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import { chargebacksOverSales, periods } from './charts';
import { Params, percent, rollupWhere, type ReportFilter } from './report-filter';

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

export async function kpiAlerts(db: Queryable, f: ReportFilter): Promise<KpiAlerts> {
  const p = new Params();
  const alertWhere = [
    ...alertScopeConditions(f.scope, p.values),
    `a.alert_date >= ${p.add(f.range.from)}::date`,
    `a.alert_date < ${p.add(f.range.to)}::date + 1`,
  ];
  if (f.currencyId !== null) alertWhere.push(`a.currency_id = ${p.add(f.currencyId)}`);
  if (f.processors !== null)
    alertWhere.push(
      `exists (select 1 from cases.mids mi where mi.id = ad.mid_id and mi.processor_id = any(${p.add(f.processors)}::int[]))`,
    );
  const { rows } = await db.query<{ month: string; alerts: string; chargebacks: string }>(
    `select to_char(g, 'YYYY-MM') as month, coalesce(al.n, 0) as alerts, coalesce(cb.n, 0) as chargebacks
     from ${periods('month', p, f)} g
     left join (select date_trunc('month', r.day) as m, sum(r.n) as n from cases.report_daily r
                where ${rollupWhere(f, p, 'post')} group by 1) cb on cb.m = g
     left join (select date_trunc('month', a.alert_date at time zone 'UTC') as m, count(*) as n
                from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
                where ${alertWhere.join(' and ')} group by 1) al on al.m = g
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
