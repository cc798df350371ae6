import type { MidTop5Query, MidTop5Row } from '@portal/contracts';
import { containsPattern, type Queryable } from '@portal/core';
import { isoDay, type DateRange } from '../scope/dates';
import { scopeConditions, type Scope } from '../scope/scope';
import { latestDays, Params, type ReportFilter } from '../reports/report-filter';
import { byMonthSql, keyedRowsSql, totalsRowsSql } from '../reports/report-range';

export function monthToDate(today = new Date()): DateRange {
  return { from: `${isoDay(today).slice(0, 7)}-01`, to: isoDay(today) };
}

/**
 * Rows of the MID rollups (migration 038, alias r: merchant, MID, n, fraud, defended) of a scope by post
 * date: whole months from mid_monthly, the days at the range's edges from mid_daily. `latest`: the tenant's
 * latest post day, so that a range reaching it reads its last month whole (report-range splitByMonth).
 */
function midActivitySql(scope: Scope, range: DateRange, p: Params, latest: string | null): string {
  const scoped = () => scopeConditions(scope, 'r', p.values).join(' and ');
  return byMonthSql(
    range,
    p,
    {
      days: (edge) =>
        `select r.mid_id, r.n, r.fraud, r.defended from cases.mid_daily r
         where ${scoped()} and r.day between ${p.add(edge.from)}::date and ${p.add(edge.to)}::date`,
      months: (first, last) =>
        `select r.mid_id, r.n, r.fraud, r.defended from cases.mid_monthly r
         where ${scoped()} and r.month between ${first} and ${last}`,
    },
    latest,
  );
}

const latestPost = async (db: Queryable, scope: Scope) => (await latestDays(db, scope.tenant)).post;

/** Chargebacks and fraud chargebacks posted in the range, from the MID rollups. */
async function postedTotals(db: Queryable, scope: Scope, range: DateRange) {
  const p = new Params();
  const activity = midActivitySql(scope, range, p, await latestPost(db, scope));
  const { rows } = await db.query<{ n: number; fraud: number }>(
    `select coalesce(sum(x.n), 0)::int as n, coalesce(sum(x.fraud), 0)::int as fraud from (${activity}) x`,
    p.values,
  );
  return { total: Number(rows[0]?.n ?? 0), fraud: Number(rows[0]?.fraud ?? 0) };
}

export async function countPosted(db: Queryable, scope: Scope, range: DateRange): Promise<number> {
  return (await postedTotals(db, scope, range)).total;
}

export async function fraudPct(db: Queryable, scope: Scope, range: DateRange) {
  const { fraud, total } = await postedTotals(db, scope, range);
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
 * rollups.
 */
export async function midsTop5(db: Queryable, scope: Scope, range: DateRange, q: MidTop5Query) {
  const p = new Params();
  const activity = midActivitySql(scope, range, p, await latestPost(db, scope));
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

/** Chargebacks per post day of the range, zeros included, from mid_daily (about half as many rows as cases). */
export async function byDate(db: Queryable, scope: Scope, range: DateRange) {
  const p = new Params();
  const from = p.add(range.from);
  const to = p.add(range.to);
  const { rows } = await db.query<{ date: string; count: number }>(
    `select to_char(g, 'YYYY-MM-DD') as date, coalesce(x.n, 0)::int as count
     from generate_series(${from}::date, ${to}::date, interval '1 day') g
     left join (select r.day, sum(r.n) as n from cases.mid_daily r
       where ${scopeConditions(scope, 'r', p.values).join(' and ')} and r.day between ${from}::date and ${to}::date
       group by r.day) x on x.day = g::date
     order by g`,
    p.values,
  );
  return { data: rows };
}

/** A report filter of a dashboard scope and post-date range: the reports' rollup readers serve the tiles. */
async function postFilter(db: Queryable, scope: Scope, range: DateRange): Promise<ReportFilter> {
  return {
    scope,
    range,
    ref: 'post',
    midId: null,
    currencyId: null,
    processors: null,
    latest: await latestDays(db, scope.tenant),
  };
}

/** Chargebacks per status group with any in the range (the rollups' counters s1..s5). */
export async function byStatus(db: Queryable, scope: Scope, range: DateRange) {
  const p = new Params();
  const f = await postFilter(db, scope, range);
  const { rows } = await db.query<{ case_status: string; count: number }>(
    `select sg.name as case_status, x.n::int as count
     from (select sum(r.s1) as s1, sum(r.s2) as s2, sum(r.s3) as s3, sum(r.s4) as s4, sum(r.s5) as s5
           from (${totalsRowsSql(f, p, 'r.s1, r.s2, r.s3, r.s4, r.s5')}) r) t
     cross join lateral (values (1, t.s1), (2, t.s2), (3, t.s3), (4, t.s4), (5, t.s5)) x(id, n)
     join cases.status_groups sg on sg.id = x.id
     where x.n > 0 order by sg.id`,
    p.values,
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
  const p = new Params();
  const f = await postFilter(db, scope, range);
  const { rows } = await db.query<{ card_type_id: number; n: number }>(
    `select r.key as card_type_id, sum(r.n)::int as n from (${keyedRowsSql(f, p, 'card_type', 'r.n')}) r
     group by r.key having sum(r.n) <> 0`,
    p.values,
  );
  const counts = new Map(rows.map((r) => [Number(r.card_type_id), Number(r.n)]));
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
