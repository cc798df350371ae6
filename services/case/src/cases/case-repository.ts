import type { CaseDetail, CaseList, CaseListQuery, CaseRow, InternalContext } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { resolveScope, scopeConditions, type Scope } from '../scope/scope';
import {
  buildCaseFilter,
  countCases,
  orderBy,
  resolveSort,
  sortKeys,
  type CaseFilter,
  type CaseSort,
} from './case-filter';
import { reference } from '../reference/reference';
import {
  CASE_COLUMNS,
  CASE_FROM,
  toCaseDetail,
  toCaseRow,
  withLabels,
  type CaseSqlRow,
} from './case-columns';

/**
 * A page of a long list sorted by a lookup's label: the lookup rows in label order, each one's matching
 * cases read from the (tenant_id, column, id) index until the page is full. One small query per lookup
 * row visited: a single statement (a lateral join) had the planner run every lookup row's scan before
 * sorting (2 s for a tab sorted by merchant at 1,000,000 cases).
 */
async function lookupPage(
  db: Queryable,
  filter: CaseFilter,
  lookup: NonNullable<CaseSort['lookup']>,
  order: 'asc' | 'desc',
  take: number,
  skip: number,
): Promise<number[]> {
  const labelParams: unknown[] = [];
  const tenant = () => {
    labelParams.push(filter.scope.tenant);
    return `$${labelParams.length}`;
  };
  const { rows: labels } = await db.query<{ id: number }>(
    `select id from (${lookup.labels(tenant)}) s order by label ${order}, id ${order}`,
    labelParams,
  );
  const ids: number[] = [];
  const params = [...filter.params];
  const [value, limit] = [`$${params.length + 1}`, `$${params.length + 2}`];
  const sql = `select c.id from cases.cases c where ${filter.conditions.join(' and ')} and ${lookup.column} = ${value}
    order by c.id ${order} limit ${limit}`;
  let toSkip = skip;
  for (const { id } of labels) {
    const need = toSkip + take - ids.length;
    const { rows } = await db.query<{ id: number }>(sql, [...params, id, need]);
    const found = rows.slice(toSkip).map((r) => Number(r.id));
    toSkip = Math.max(0, toSkip - rows.length);
    ids.push(...found);
    if (ids.length >= take) break;
  }
  return ids.slice(0, take);
}

/** Full rows of the given case ids, in the order of the ids. */
export async function loadCaseRows(db: Queryable, ids: readonly number[]): Promise<CaseRow[]> {
  if (!ids.length) return [];
  const [{ rows }, ref] = await Promise.all([
    db.query<CaseSqlRow>(`select ${CASE_COLUMNS} ${CASE_FROM} where c.id = any($1::bigint[])`, [ids], {
      prepared: true,
    }),
    reference(db),
  ]);
  const byId = new Map(rows.map((r) => [Number(r.id), withLabels(r, ref)]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toCaseRow(row)] : [];
  });
}

/**
 * At most this many matching cases are filtered first and then sorted: a
 * narrow filter (a month of post dates, one verdict) whose rows sit at the far
 * end of the sort's index would otherwise have the index walked past hundreds
 * of thousands of other cases (5 s at 1,000,000 cases; sorting 20,000 ids
 * takes milliseconds).
 */
const FILTER_FIRST_ROWS = 20_000;

/**
 * A case's dates move together (due 20-45 days after post, the transaction before it): a range of one date
 * puts its matches in one stretch of another date's index, often hundreds of thousands of entries from the
 * end a page starts at (800 ms for a year of post dates sorted by due date at 1,000,000 cases; filtering
 * first, 160 ms). Then up to this many matches are filtered first.
 */
const FILTER_FIRST_DATED_ROWS = 100_000;
const DATE_SORTS = new Set([
  'c.date_post',
  'c.date_due',
  'c.date_trans',
  'c.date_created',
  'c.date_completed',
]);

/**
 * One page of cases: the total first (from case_counts when the filter
 * allows), then the ids of the page (from the sort's index, or filtered first
 * when few match; a page in the second half read from the other end, so the
 * deepest pages cost as little as the first), then their rows with labels.
 */
export async function listCases(
  db: Queryable,
  ctx: InternalContext,
  q: CaseListQuery,
  options: { filterFirstRows?: number } = {},
): Promise<CaseList> {
  const sort = resolveSort(q.sort_by, q.sort_order);
  const filter = await buildCaseFilter(db, ctx, q);
  const farApart = DATE_SORTS.has(sort.expr) && filter.rangedDates.some((d) => d !== sort.expr);
  const filterFirstRows = options.filterFirstRows ?? (farApart ? FILTER_FIRST_DATED_ROWS : FILTER_FIRST_ROWS);
  const limit = q.limit ?? 50;
  const start = q.start ?? 0;
  const where = filter.conditions.join(' and ');
  const keys = sortKeys(sort);
  const pageIds = async (order: 'asc' | 'desc', take: number, skip: number, filterFirst: boolean) => {
    if (take <= 0) return [];
    if (!filterFirst && sort.lookup) return lookupPage(db, filter, sort.lookup, order, take, skip);
    const params = [...filter.params, take, skip];
    const page = `limit $${params.length - 1} offset $${params.length}`;
    // offset 0 keeps the planner from folding the filter back into an index walk in sort order.
    const sql = filterFirst
      ? `select x.id from (select ${keys.map((k, i) => `${k} as k${i}`).join(', ')}, c.id
           from cases.cases c ${sort.join} where ${where} offset 0) x
         order by ${keys.map((_, i) => `x.k${i} ${order}`).join(', ')} ${page}`
      : `select c.id from cases.cases c ${sort.join} where ${where} ${orderBy({ ...sort, order })} ${page}`;
    const { rows } = await db.query<{ id: number }>(sql, params);
    return rows.map((r) => Number(r.id));
  };
  const total = await countCases(db, filter);
  const take = Math.min(limit, Math.max(0, total - start));
  const filterFirst = total <= filterFirstRows;
  const reverse = start > total / 2;
  const flip = sort.order === 'asc' ? 'desc' : 'asc';
  const ids = reverse
    ? (await pageIds(flip, take, total - start - take, filterFirst)).reverse()
    : await pageIds(sort.order, take, start, filterFirst);
  return { data: await loadCaseRows(db, ids), pagination: { total, limit, start } };
}

/** The case if it is in the caller's scope, else null (the route answers 404). */
export async function findCase(db: Queryable, scope: Scope, id: number): Promise<CaseDetail | null> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'c', params);
  params.push(id);
  const { rows } = await db.query<CaseSqlRow>(
    `select ${CASE_COLUMNS} ${CASE_FROM} where ${conditions.join(' and ')} and c.id = $${params.length}`,
    params,
    // One text per shape of scope (a handful), each planned once per connection.
    { prepared: true },
  );
  return rows[0] ? toCaseDetail(withLabels(rows[0], await reference(db))) : null;
}

export async function getCase(db: Queryable, ctx: InternalContext, id: number): Promise<CaseDetail | null> {
  return findCase(db, await resolveScope(db, ctx), id);
}

/** The SQL and parameters of every matching row, ordered, for the exports. */
export async function exportQuery(
  db: Queryable,
  ctx: InternalContext,
  q: CaseListQuery,
): Promise<{ sql: string; params: unknown[] }> {
  const sort = resolveSort(q.sort_by, q.sort_order);
  const filter = await buildCaseFilter(db, ctx, q);
  const params = [...filter.params];
  let paging = '';
  if (q.export_type === 'page') {
    params.push(q.limit ?? 50, q.start ?? 0);
    paging = `limit $${params.length - 1} offset $${params.length}`;
  }
  // CASE_FROM has the merchant and MID aliases; other label sorts add their join.
  const join = ['mid', 'mid_alias', 'merchant_name'].includes(sort.column) ? '' : sort.join;
  return {
    sql: `select ${CASE_COLUMNS} ${CASE_FROM} ${join} where ${filter.conditions.join(' and ')} ${orderBy(sort)} ${paging}`,
    params,
  };
}
