import type {
  MoneyTotals,
  RecoveredRevenueGroup,
  RecoveredRevenueRow,
  RecoveredRevenueRows,
  RecoveredTile,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { isoDay } from '../scope/dates';
import type { Scope } from '../scope/scope';
import { Params, type ReportFilter } from '../reports/report-filter';
import { keyedRowsSql, monthRowsSql, rollupRowsSql, totalsRowsSql } from '../reports/report-range';

/**
 * The ledger's reads (issue 33): recovered, lost and fees in the reporting currency, summed from the
 * report rollups (migration 040 columns), never from case rows. Months are post-date months (the
 * rollups' date reference 1 unless the filter says transaction date).
 */
const SUMS = `sum(x.n)::int as n, sum(x.recovered) as recovered, sum(x.lost) as lost, sum(x.fees) as fees,
  sum(x.unrated)::int as unrated`;
const COLUMNS = 'r.n, r.recovered, r.lost, r.fees, r.unrated';

interface SumRow {
  n: number;
  recovered: string | null;
  lost: string | null;
  fees: string | null;
  unrated: number;
}

const money = (v: string | number | null) => Math.round(Number(v ?? 0) * 100) / 100;

function totals(r: SumRow | undefined): MoneyTotals {
  const recovered = money(r?.recovered ?? 0);
  const fees = money(r?.fees ?? 0);
  return {
    chargebacks: Number(r?.n ?? 0),
    recovered,
    lost: money(r?.lost ?? 0),
    fees,
    net: money(recovered - fees),
    unrated: Number(r?.unrated ?? 0),
  };
}

export async function reportingCurrency(db: Queryable, tenant: string): Promise<string> {
  const { rows } = await db.query<{ code: string }>(
    `select c.code from cases.currencies c
     where c.id = coalesce((select reporting_currency_id from cases.money_settings where tenant_id = $1), 1)`,
    [tenant],
  );
  return rows[0]?.code ?? 'USD';
}

const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));

/** This month's money (post dates so far) against last month's, for the dashboard tile. */
export async function recoveredTile(db: Queryable, scope: Scope, today = new Date()): Promise<RecoveredTile> {
  const thisMonth = isoDay(monthStart(today));
  const lastMonth = isoDay(monthStart(today, -1));
  // Whole months (no case is posted after today): only the monthly rollup is read.
  const f: ReportFilter = {
    scope,
    range: { from: lastMonth, to: isoDay(new Date(monthStart(today, 1).getTime() - 86_400_000)) },
    ref: 'post',
    midId: null,
    currencyId: null,
    processors: null,
  };
  const p = new Params();
  const { rows } = await db.query<SumRow & { m: string }>(
    `select x.month::text as m, ${SUMS} from (${totalsRowsSql(f, p, `r.month, ${COLUMNS}`)}) x group by 1`,
    p.values,
  );
  const current = totals(rows.find((r) => r.m === thisMonth));
  const previous = totals(rows.find((r) => r.m === lastMonth));
  return {
    currency: await reportingCurrency(db, scope.tenant),
    this_month: current,
    last_month: previous,
    change_percent:
      previous.net === 0
        ? null
        : Math.round(((current.net - previous.net) / Math.abs(previous.net)) * 10_000) / 100,
  };
}

/** The rows (key, n, money columns) of a grouping, and how each key is labelled. */
function groupSql(
  f: ReportFilter,
  p: Params,
  group: RecoveredRevenueGroup,
): { rows: string; label: string; join: string } {
  if (group === 'month')
    return {
      rows: `select m.m as key, m.n, m.recovered, m.lost, m.fees, m.unrated from (${monthRowsSql(f, p, COLUMNS)}) m`,
      label: `to_char(g.key, 'YYYY-MM')`,
      join: '',
    };
  if (group === 'mid')
    // A column of the monthly rollup: whole months are read there.
    return {
      rows: rollupRowsSql(f, p, `r.mid_id as key, ${COLUMNS}`),
      label: `mi.mid || coalesce(' (' || mi.alias || ')', '')`,
      join: 'join cases.mids mi on mi.id = g.key',
    };
  return {
    rows: keyedRowsSql(f, p, 'reason_code', COLUMNS),
    label: `rc.code || ' - ' || rc.description`,
    join: 'join cases.reason_codes rc on rc.id = g.key',
  };
}

/** The 'Recovered revenue' section: by month (oldest first), or by reason code or MID (most recovered first). */
export async function recoveredRevenue(
  db: Queryable,
  f: ReportFilter,
  group: RecoveredRevenueGroup,
  limit: number | null,
): Promise<RecoveredRevenueRows> {
  const p = new Params();
  const g = groupSql(f, p, group);
  const order = group === 'month' ? 'g.key' : 'g.recovered desc, g.n desc, g.key';
  const { rows } = await db.query<SumRow & { key: string; label: string }>(
    `with g as (select x.key, ${SUMS} from (${g.rows}) x group by 1 having sum(x.n) <> 0)
     select g.key::text as key, ${g.label} as label, g.n, g.recovered, g.lost, g.fees, g.unrated
     from g ${g.join} order by ${order}`,
    p.values,
  );
  const data: RecoveredRevenueRow[] = rows.map((r) => ({ key: r.key, label: r.label, ...totals(r) }));
  const total = totals({
    n: data.reduce((s, r) => s + r.chargebacks, 0),
    recovered: String(data.reduce((s, r) => s + r.recovered, 0)),
    lost: String(data.reduce((s, r) => s + r.lost, 0)),
    fees: String(data.reduce((s, r) => s + r.fees, 0)),
    unrated: data.reduce((s, r) => s + r.unrated, 0),
  });
  return {
    currency: await reportingCurrency(db, f.scope.tenant),
    total,
    groups: data.length,
    data: limit === null ? data : data.slice(0, limit),
  };
}
