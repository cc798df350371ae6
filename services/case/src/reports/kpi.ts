import type { KpiAlerts, KpiChargebacks } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import { Params, percent, rollupWhere, salesWhere, type ReportFilter } from './report-filter';

/**
 * Resultant KPI (spec 3 §2): per month of the range, chargebacks (by post month) against transactions,
 * and alerts against chargebacks. `currency_id` and `platform_id` narrow both sides.
 */

const months = (p: Params, f: ReportFilter) =>
  `generate_series(date_trunc('month', ${p.add(f.range.from)}::date), ${p.add(f.range.to)}::date, interval '1 month')`;

export async function kpiChargebacks(db: Queryable, f: ReportFilter): Promise<KpiChargebacks> {
  const p = new Params();
  const { rows } = await db.query<{ month: string; chargebacks: string; transactions: string }>(
    `select to_char(g, 'YYYY-MM') as month, coalesce(cb.n, 0) as chargebacks, coalesce(s.n, 0) as transactions
     from ${months(p, f)} g
     left join (select date_trunc('month', r.day) as m, sum(r.n) as n from cases.report_daily r
                where ${rollupWhere(f, p, 'post')} group by 1) cb on cb.m = g
     left join (select date_trunc('month', t.day) as m, sum(t.trans_count) as n from cases.transactions_daily t
                where ${salesWhere(f, p)} group by 1) s on s.m = g
     order by g`,
    p.values,
  );
  return {
    data: rows.map((r) => ({
      month: r.month,
      chargebacks: Number(r.chargebacks),
      transactions: Number(r.transactions),
      result_ratio: percent(Number(r.chargebacks), Number(r.transactions)),
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
     from ${months(p, f)} g
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
