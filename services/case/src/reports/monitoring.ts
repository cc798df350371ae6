import type { MonitoringReport, MonitoringRow } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { scopeConditions, type Scope } from '../scope/scope';
import { isoDay } from '../scope/dates';
import { Params, percent } from './report-filter';

/**
 * Card network monitoring (issue 18; contents not shown in the spec): per MID and network, the month's
 * disputes (chargebacks posted in the month) against the month's sales of that network, measured
 * against the networks' programs. A MID is above a program when both its ratio and its dispute count
 * reach the thresholds; it is a warning when it reaches WARNING_SHARE of the ratio threshold with at
 * least WARNING_SHARE of the count.
 */
const PROGRAMS = [
  { network: 'Visa', program: 'Visa Dispute Monitoring Program', cardTypeId: 1, ratio: 0.9, count: 100 },
  {
    network: 'Mastercard',
    program: 'Mastercard Excessive Chargeback Program',
    cardTypeId: 2,
    ratio: 1.5,
    count: 100,
  },
] as const;
const WARNING_SHARE = 0.75;

function monitoringStatus(
  program: { ratio: number; count: number },
  disputes: number,
  ratio: number,
): MonitoringRow['status'] {
  if (ratio >= program.ratio && disputes >= program.count) return 'Above threshold';
  if (ratio >= program.ratio * WARNING_SHARE && disputes >= program.count * WARNING_SHARE) return 'Warning';
  return 'OK';
}

/** The month (yyyy-MM; default the current one) as a day range, ending today for the current month. */
function monthRange(month: string | undefined, today = new Date()) {
  const m = month ?? isoDay(today).slice(0, 7);
  const [y, mo] = m.split('-').map(Number) as [number, number];
  const end = isoDay(new Date(Date.UTC(y, mo, 0)));
  return { month: m, from: `${m}-01`, to: end };
}

export async function monitoring(
  db: Queryable,
  scope: Scope,
  month: string | undefined,
  limit: number,
): Promise<MonitoringReport> {
  const range = monthRange(month);
  const p = new Params();
  const mids = scopeConditions(scope, 'mi', p.values).map((c) => c.replace('mi.mid_id', 'mi.id'));
  const tenant = p.add(scope.tenant);
  const from = p.add(range.from);
  const to = p.add(range.to);
  const cards = p.add(PROGRAMS.map((x) => x.cardTypeId));
  const { rows } = await db.query<{
    card_type_id: number;
    mid_id: string;
    mid: string;
    alias: string | null;
    merchant: string;
    disputes: string;
    transactions: string;
  }>(
    `with mids as (
       select mi.id, mi.mid, mi.alias, m.business_name from cases.mids mi join cases.merchants m on m.id = mi.merchant_id
       where ${mids.join(' and ')}
     ),
     cb as (
       select r.mid_id, r.card_type_id, sum(r.n) as n from cases.report_daily r
       where r.tenant_id = ${tenant} and r.ref = 1 and r.day between ${from}::date and ${to}::date
         and r.card_type_id = any(${cards}::int[]) and r.mid_id in (select id from mids) group by 1, 2
     ),
     s as (
       select t.mid_id, t.card_type_id, sum(t.trans_count) as n from cases.transactions_daily t
       where t.tenant_id = ${tenant} and t.day between ${from}::date and ${to}::date
         and t.card_type_id = any(${cards}::int[]) and t.mid_id in (select id from mids) group by 1, 2
     )
     select coalesce(cb.card_type_id, s.card_type_id) as card_type_id, mids.id as mid_id, mids.mid, mids.alias,
       mids.business_name as merchant, coalesce(cb.n, 0) as disputes, coalesce(s.n, 0) as transactions
     from cb full join s on s.mid_id = cb.mid_id and s.card_type_id = cb.card_type_id
     join mids on mids.id = coalesce(cb.mid_id, s.mid_id)`,
    p.values,
  );
  const all = rows.flatMap((r) => {
    const program = PROGRAMS.find((x) => x.cardTypeId === Number(r.card_type_id));
    if (!program) return [];
    const disputes = Number(r.disputes);
    const transactions = Number(r.transactions);
    const ratio = percent(disputes, transactions);
    return [
      {
        network: program.network,
        mid_id: Number(r.mid_id),
        mid: r.mid,
        mid_alias: r.alias,
        merchant: r.merchant,
        disputes,
        transactions,
        ratio,
        status: monitoringStatus(program, disputes, ratio),
      },
    ];
  });
  const rank = { 'Above threshold': 0, Warning: 1, OK: 2 } as const;
  all.sort((a, b) => rank[a.status] - rank[b.status] || b.ratio - a.ratio || a.mid.localeCompare(b.mid));
  return {
    month: range.month,
    programs: PROGRAMS.map((program) => {
      const of = all.filter((r) => r.network === program.network);
      const disputes = of.reduce((s, r) => s + r.disputes, 0);
      const transactions = of.reduce((s, r) => s + r.transactions, 0);
      return {
        network: program.network,
        program: program.program,
        ratio_threshold: program.ratio,
        count_threshold: program.count,
        disputes,
        transactions,
        ratio: percent(disputes, transactions),
        above: of.filter((r) => r.status === 'Above threshold').length,
        warning: of.filter((r) => r.status === 'Warning').length,
      };
    }),
    data: all.slice(0, limit),
  };
}
