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

interface Group {
  source_id: number;
  outcome_id: number | null;
  completed: boolean;
  n: string;
  amount: string;
}

/** One pass over the range's alerts, grouped by source, outcome and completion; both tables are built from it. */
export async function alertsReport(db: Queryable, scope: Scope, range: DateRange): Promise<AlertsReport> {
  const p = new Params();
  const where = [
    ...alertScopeConditions(scope, p.values),
    `a.alert_date >= ${p.add(range.from)}::date`,
    `a.alert_date < ${p.add(range.to)}::date + 1`,
  ].join(' and ');
  const [groups, sources, outcomeNames] = await Promise.all([
    db.query<Group>(
      `select a.source_id, a.outcome_id, a.completed, count(*) as n, coalesce(sum(a.trans_amount), 0) as amount
       from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
       where ${where} group by 1, 2, 3`,
      p.values,
    ),
    db.query<{ id: number; name: string }>('select id, name from cases.sources order by id'),
    db.query<{ id: number; name: string }>('select id, name from cases.alert_outcomes'),
  ]);
  const of = (sourceId: number, keep: (g: Group) => boolean, value: (g: Group) => number) =>
    groups.rows.filter((g) => g.source_id === sourceId && keep(g)).reduce((s, g) => s + value(g), 0);
  const count = (g: Group) => Number(g.n);
  const amount = (g: Group) => Number(g.amount);
  const isResolved = (g: Group) => g.outcome_id !== null && RESOLVED.includes(g.outcome_id);
  const data = sources.rows.map((src) => {
    const alerts = of(src.id, () => true, count);
    const res = of(src.id, isResolved, count);
    return {
      source: src.name,
      alerts,
      resolved: res,
      already_chargeback: of(src.id, (g) => g.outcome_id === ALREADY_CHARGEBACK, count),
      not_resolved: of(src.id, (g) => g.outcome_id !== null && NOT_RESOLVED.includes(g.outcome_id), count),
      open: of(src.id, (g) => !g.completed, count),
      alert_amount: Math.round(of(src.id, () => true, amount) * 100) / 100,
      savings: Math.round(of(src.id, isResolved, amount) * 100) / 100,
      resolve_rate: percent(res, alerts),
    };
  });
  const names = new Map(outcomeNames.rows.map((o) => [o.id, o.name]));
  const byOutcome = new Map<number | null, number>();
  for (const g of groups.rows) byOutcome.set(g.outcome_id, (byOutcome.get(g.outcome_id) ?? 0) + count(g));
  // By outcome id, the open ones (no outcome) last.
  const outcomes = [...byOutcome]
    .sort(([a], [b]) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER))
    .map(([id, n]) => ({ outcome: id === null ? 'Open' : (names.get(id) ?? String(id)), count: n }));
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
  return { data, total, outcomes };
}
