import type { MidTop5Query, MidTop5Row } from '@portal/contracts';
import { containsPattern, type Queryable } from '@portal/core';
import { isoDay, type DateRange } from '../scope/dates';
import { scopeConditions, type Scope } from '../scope/scope';
import { Params } from '../reports/report-filter';
import { byMonthSql } from '../reports/report-range';

/** Scope plus a post-date range on alias c, with the parameters. */
function where(scope: Scope, range: DateRange | null): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'c', params);
  if (range) {
    params.push(range.from, range.to);
    conditions.push(`c.date_post between $${params.length - 1}::date and $${params.length}::date`);
  }
  return { sql: conditions.join(' and '), params };
}

export function monthToDate(today = new Date()): DateRange {
  return { from: `${isoDay(today).slice(0, 7)}-01`, to: isoDay(today) };
}

export async function countPosted(db: Queryable, scope: Scope, range: DateRange): Promise<number> {
  const w = where(scope, range);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from cases.cases c where ${w.sql}`,
    w.params,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function fraudPct(db: Queryable, scope: Scope, range: DateRange) {
  const w = where(scope, range);
  const { rows } = await db.query<{ fraud: number; total: number }>(
    `select count(*) filter (where c.is_fraud)::int as fraud, count(*)::int as total from cases.cases c where ${w.sql}`,
    w.params,
  );
  const fraud = Number(rows[0]?.fraud ?? 0);
  const total = Number(rows[0]?.total ?? 0);
  const ratio = total ? fraud / total : 0;
  return { ratio, percent: Math.round(ratio * 10_000) / 100, fraud, total };
}

/** MIDs in scope, onboarded by the end of the range. */
export async function midsCount(db: Queryable, scope: Scope, range: DateRange | null): Promise<number> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'mi', params).map((c) => c.replace('mi.mid_id', 'mi.id'));
  if (range) {
    params.push(range.to);
    conditions.push(`mi.date_created < $${params.length}::date + 1`);
  }
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from cases.mids mi where ${conditions.join(' and ')}`,
    params,
  );
  return Number(rows[0]?.n ?? 0);
}

const TOP5_SORT: Record<string, string> = {
  mid: 'mid',
  midDescriptor: '"midDescriptor"',
  midAlias: '"midAlias"',
  new: 'new',
  nonFraud: '"nonFraud"',
  percentNonFraud: '"percentNonFraud"',
  fraud: 'fraud',
  percentFraud: '"percentFraud"',
  defended: 'defended',
};

/**
 * New chargebacks per MID in the range, with fraud split and defended count (spec 1 §2.5), from the MID
 * rollups (migration 038): whole months from mid_monthly, the days at the range's edges from mid_daily.
 */
export async function midsTop5(db: Queryable, scope: Scope, range: DateRange, q: MidTop5Query) {
  const p = new Params();
  const scoped = () => scopeConditions(scope, 'r', p.values).join(' and ');
  const activity = byMonthSql(range, p, {
    days: (edge) =>
      `select r.mid_id, r.n, r.fraud, r.defended from cases.mid_daily r
       where ${scoped()} and r.day between ${p.add(edge.from)}::date and ${p.add(edge.to)}::date`,
    months: (first, last) =>
      `select r.mid_id, r.n, r.fraud, r.defended from cases.mid_monthly r
       where ${scoped()} and r.month between ${first} and ${last}`,
  });
  const agg = `select x.mid_id, sum(x.n)::int as new, sum(x.n - x.fraud)::int as "nonFraud", sum(x.fraud)::int as fraud,
      sum(x.defended)::int as defended
    from (${activity}) x group by x.mid_id having sum(x.n) > 0`;
  const aggParams = [...p.values];
  const search = q.search?.trim()
    ? `where r.mid ilike ${p.add(containsPattern(q.search))} or r."midDescriptor" ilike $${p.values.length} or r."midAlias" ilike $${p.values.length}`
    : '';
  const sort = TOP5_SORT[q.sort_by ?? 'new'] ?? 'new';
  const order = q.sort_order ?? (q.sort_by ? 'asc' : 'desc');
  const limit = q.limit ?? 5;
  const start = q.start ?? 0;
  const { rows } = await db.query<MidTop5Row & { total: number }>(
    `with agg as (${agg}), r as (
       select mi.mid, (select d.descriptor from cases.descriptors d where d.tenant_id = mi.tenant_id and d.mid_id = mi.id order by d.id limit 1) as "midDescriptor",
         mi.alias as "midAlias", agg.new, agg."nonFraud", round(100.0 * agg."nonFraud" / agg.new, 2)::float8 as "percentNonFraud",
         agg.fraud, round(100.0 * agg.fraud / agg.new, 2)::float8 as "percentFraud", agg.defended
       from agg join cases.mids mi on mi.id = agg.mid_id
     )
     select r.*, count(*) over ()::int as total from r ${search}
     order by ${sort} ${order}, mid asc
     limit ${p.add(limit === 0 ? null : limit)} offset ${p.add(start)}`,
    p.values,
  );
  let total = Number(rows[0]?.total ?? 0);
  if (limit === 0 || (!rows.length && start > 0)) {
    const counted = await db.query<{ n: number }>(`select count(*)::int as n from (${agg}) a`, aggParams);
    total = Number(counted.rows[0]?.n ?? 0);
  }
  return {
    data: limit === 0 ? [] : rows.map(({ total: _t, ...r }) => r),
    pagination: { total, limit, start },
  };
}

export async function byDate(db: Queryable, scope: Scope, range: DateRange) {
  const w = where(scope, range);
  const { rows } = await db.query<{ date: string; count: number }>(
    `select to_char(g, 'YYYY-MM-DD') as date, coalesce(x.n, 0)::int as count
     from generate_series($${w.params.length - 1}::date, $${w.params.length}::date, interval '1 day') g
     left join (select c.date_post, count(*) as n from cases.cases c where ${w.sql} group by c.date_post) x on x.date_post = g::date
     order by g`,
    w.params,
  );
  return { data: rows };
}

export async function byStatus(db: Queryable, scope: Scope, range: DateRange) {
  const w = where(scope, range);
  const { rows } = await db.query<{ case_status: string; count: number }>(
    `select sg.name as case_status, x.n::int as count
     from (select c.status_group_id, count(*) as n from cases.cases c where ${w.sql} group by c.status_group_id) x
     join cases.status_groups sg on sg.id = x.status_group_id order by sg.id`,
    w.params,
  );
  return { data: rows };
}

const CARD_ALIASES: Record<string, number> = {
  visa: 1,
  mastercard: 2,
  'master card': 2,
  amex: 3,
  'american express': 3,
  discover: 4,
};

/** Counts per card type in the order of the names asked for; every other card type is summed as 'Other'. */
export async function byCardType(db: Queryable, scope: Scope, range: DateRange, names: string[]) {
  const w = where(scope, range);
  const { rows } = await db.query<{ card_type_id: number; n: number }>(
    `select c.card_type_id, count(*)::int as n from cases.cases c where ${w.sql} group by c.card_type_id`,
    w.params,
  );
  const counts = new Map(rows.map((r) => [r.card_type_id, Number(r.n)]));
  const used = new Set<number>();
  const data = names.map((name) => {
    const id = CARD_ALIASES[name.toLowerCase()];
    if (id !== undefined) used.add(id);
    return { name, count: id === undefined ? 0 : (counts.get(id) ?? 0) };
  });
  const other = [...counts].filter(([id]) => !used.has(id)).reduce((sum, [, n]) => sum + n, 0);
  if (other > 0) data.push({ name: 'Other', count: other });
  return { data };
}
