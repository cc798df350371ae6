import type { WinRateRows, WinRateQuery } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { reportingCurrency } from '../money/money-report';
import { Params, percent, type ReportFilter } from './report-filter';
import { groupedRowsSql, type RollupGroup } from './report-range';

/**
 * Win rate (issue 18, beyond the spec): per reason code, card type or merchant of the selection, the
 * chargebacks, the decided ones (verdict Win or Loss), the win rate among them, and their disputed and
 * recovered amounts. Largest groups first.
 *
 * The amounts are the money ledger's (issue 33, migrations 040 and 043), in the tenant's reporting currency:
 * each case at the newest rate of its currency on or before its post date, recovered as the ledger counts it
 * (a Win's recovered amount, partial recoveries included), cases without a rate counted in `unrated` and left
 * out, so the recovered amounts of the groups add up to the 'Recovered revenue' section's total for the same
 * filter. Summed from the same rollups (report-range.ts) as that section.
 */
const GROUPS: Record<
  NonNullable<WinRateQuery['group_by']>,
  { group: RollupGroup; label: string; join: string }
> = {
  reason_code: {
    group: 'reason_code',
    label: `rc.code || ' - ' || rc.description`,
    join: 'join cases.reason_codes rc on rc.id = x.key',
  },
  card_type: { group: 'card_type', label: 'ct.name', join: 'join cases.card_types ct on ct.id = x.key' },
  merchant: {
    group: { column: 'r.merchant_id' },
    label: 'm.business_name',
    join: 'join cases.merchants m on m.id = x.key',
  },
};

export async function winRate(
  db: Queryable,
  f: ReportFilter,
  groupBy: NonNullable<WinRateQuery['group_by']>,
  limit: number,
): Promise<WinRateRows> {
  const g = GROUPS[groupBy];
  const p = new Params();
  const rows = groupedRowsSql(f, p, g.group, 'r.n, r.v4, r.v5, r.disputed, r.recovered, r.unrated');
  const [{ rows: found }, currency] = await Promise.all([
    db.query<Record<string, string>>(
      `select x.key, ${g.label} as label, x.n, x.won, x.lost, x.disputed, x.recovered, x.unrated from (
         select r.key, sum(r.n) as n, sum(r.v4) as won, sum(r.v5) as lost, sum(r.disputed) as disputed,
           sum(r.recovered) as recovered, sum(r.unrated) as unrated
         from (${rows}) r group by 1 having sum(r.n) > 0
       ) x ${g.join}
       order by x.n desc, x.key limit ${p.add(limit)}`,
      p.values,
    ),
    reportingCurrency(db, f.scope.tenant),
  ]);
  return {
    currency,
    data: found.map((r) => {
      const won = Number(r.won);
      const lost = Number(r.lost);
      return {
        key: String(r.key),
        label: String(r.label),
        chargebacks: Number(r.n),
        won,
        lost,
        win_rate: won + lost > 0 ? percent(won, won + lost) : null,
        disputed_amount: Math.round(Number(r.disputed) * 100) / 100,
        recovered_amount: Math.round(Number(r.recovered) * 100) / 100,
        unrated: Number(r.unrated),
      };
    }),
  };
}
