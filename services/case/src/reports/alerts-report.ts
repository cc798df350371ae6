import type { AlertsReport } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { alertScopeConditions } from '../alerts/alert-scope';
import type { Scope } from '../scope/scope';
import type { DateRange } from '../scope/dates';
import { Params, percent } from './report-filter';

/**
 * Alerts report (issue 18; contents not shown in the spec): per alert source over the range, how the
 * alerts ended. Resolved: refunded (outcomes 1-3) or resolved with the customer (8), each a chargeback
 * avoided, its amount the savings; already a chargeback (6); not resolved (no match, declined, no
 * refund: 4, 5, 7); open (not completed).
 */
const RESOLVED = [1, 2, 3, 8];
const NOT_RESOLVED = [4, 5, 7];
const ALREADY_CHARGEBACK = 6;

export async function alertsReport(db: Queryable, scope: Scope, range: DateRange): Promise<AlertsReport> {
  const p = new Params();
  const where = [
    ...alertScopeConditions(scope, p.values),
    `a.alert_date >= ${p.add(range.from)}::date`,
    `a.alert_date < ${p.add(range.to)}::date + 1`,
  ].join(' and ');
  const resolved = p.add(RESOLVED);
  const notResolved = p.add(NOT_RESOLVED);
  const already = p.add(ALREADY_CHARGEBACK);
  const { rows } = await db.query<Record<string, string>>(
    `select src.name as source, count(a.id) as alerts,
       count(a.id) filter (where a.outcome_id = any(${resolved}::int[])) as resolved,
       count(a.id) filter (where a.outcome_id = ${already}) as already_chargeback,
       count(a.id) filter (where a.outcome_id = any(${notResolved}::int[])) as not_resolved,
       count(a.id) filter (where not a.completed) as open,
       coalesce(sum(a.trans_amount), 0) as alert_amount,
       coalesce(sum(a.trans_amount) filter (where a.outcome_id = any(${resolved}::int[])), 0) as savings
     from cases.sources src
     left join (cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id)
       on a.source_id = src.id and ${where}
     group by src.id, src.name order by src.id`,
    p.values,
  );
  const outcomes = await db.query<{ outcome: string; count: string }>(
    `select coalesce(o.name, 'Open') as outcome, count(*) as count
     from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
     left join cases.alert_outcomes o on o.id = a.outcome_id
     where ${where} group by o.id, o.name order by o.id nulls last`,
    p.values.slice(0, p.values.length - 3),
  );
  const data = rows.map((r) => {
    const alerts = Number(r.alerts);
    const res = Number(r.resolved);
    return {
      source: String(r.source),
      alerts,
      resolved: res,
      already_chargeback: Number(r.already_chargeback),
      not_resolved: Number(r.not_resolved),
      open: Number(r.open),
      alert_amount: Math.round(Number(r.alert_amount) * 100) / 100,
      savings: Math.round(Number(r.savings) * 100) / 100,
      resolve_rate: percent(res, alerts),
    };
  });
  const sum = (
    k: 'alerts' | 'resolved' | 'already_chargeback' | 'not_resolved' | 'open' | 'alert_amount' | 'savings',
  ) => data.reduce((s, r) => s + r[k], 0);
  const total = {
    source: 'Total',
    alerts: sum('alerts'),
    resolved: sum('resolved'),
    already_chargeback: sum('already_chargeback'),
    not_resolved: sum('not_resolved'),
    open: sum('open'),
    alert_amount: Math.round(sum('alert_amount') * 100) / 100,
    savings: Math.round(sum('savings') * 100) / 100,
    resolve_rate: percent(sum('resolved'), sum('alerts')),
  };
  return {
    data,
    total,
    outcomes: outcomes.rows.map((r) => ({ outcome: r.outcome, count: Number(r.count) })),
  };
}
