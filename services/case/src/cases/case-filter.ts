import { CASE_SORT_COLUMNS, STATUS_GROUP, type CaseListQuery, type CaseSortColumn } from '@portal/contracts';
import { badRequest, escapeLike, type Queryable } from '@portal/core';
import { isoDay, parseDateRange, parseIdList } from '../scope/dates';
import { narrowToMerchant, resolveScope, scopeConditions, type Scope } from '../scope/scope';
import type { InternalContext } from '@portal/contracts';

/** Status ids of each status group (cases.statuses; reference data, fixed by migration 001). */
const GROUP_STATUSES: Record<number, number[]> = {
  1: [1],
  2: [2, 3, 6, 7, 8, 9, 16],
  3: [10],
  4: [5],
  5: [4],
};
const ALL_STATUSES = Object.values(GROUP_STATUSES).flat();

/** Dimensions of cases.case_counts: a filter using only these is counted from that table. */
interface CountDims {
  statusIds: number[] | null;
  cycleIds: number[] | null;
  isFraud: boolean | null;
  midIds: number[] | null;
}

export interface CaseFilter {
  scope: Scope;
  /** SQL conditions on alias `c`; parameters in `params`. */
  conditions: string[];
  params: unknown[];
  /** Set when the count can be summed from cases.case_counts. */
  countDims: CountDims | null;
  /** Date columns the filter gives a range of (c.date_post, …). */
  rangedDates: string[];
}

const intersect = (a: number[] | null, b: number[]) => (a === null ? b : a.filter((x) => b.includes(x)));

/** Builds the WHERE of a case list from the caller's scope and the query (spec 2 §7). */
export async function buildCaseFilter(
  db: Queryable,
  ctx: InternalContext,
  q: CaseListQuery,
): Promise<CaseFilter> {
  const base = await resolveScope(db, ctx);
  let scope = await narrowToMerchant(db, base, q.client_id, 'client_id');
  scope = await narrowToMerchant(db, scope, q.merchant_id, 'merchant_id');
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'c', params);
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  let countable = true;
  const dims: CountDims = { statusIds: null, cycleIds: null, isFraud: null, midIds: null };
  const today = isoDay(new Date());

  switch (q.filter_group) {
    case 'working_cases':
      // Literal IN (1, 2): matches the partial index cases_tenant_open_due.
      conditions.push('c.status_group_id in (1, 2)');
      dims.statusIds = [...GROUP_STATUSES[1]!, ...GROUP_STATUSES[2]!];
      break;
    case 'new_cases':
      conditions.push('c.status_id = 1');
      dims.statusIds = [1];
      break;
    case 'expiring_cases':
      // Open cases due within the 72-hour window (spec 1 §9).
      conditions.push(
        'c.status_group_id in (1, 2)',
        `c.date_due between ${p(today)}::date and ${p(today)}::date + 3`,
      );
      countable = false;
      break;
    case 'primary_case_expire':
      conditions.push(
        'c.status_group_id in (1, 2)',
        'c.cycle_id = 1',
        `c.date_due between ${p(today)}::date and ${p(today)}::date + ${p(q.primary_case_due_days ?? 7)}::int`,
      );
      countable = false;
      break;
    case 'assigned':
      // Counted from the small partial index cases_tenant_assigned_due, which covers the tabs' filters.
      conditions.push('c.assigned_user_id is not null');
      countable = false;
      break;
    case 'dnr':
      conditions.push('c.status_id = 4');
      dims.statusIds = [4];
      break;
    case 'expired':
      conditions.push('c.status_id = 5');
      dims.statusIds = [5];
      break;
    case 'in_progress':
      conditions.push(`c.status_group_id = ${STATUS_GROUP.InProgress}`);
      dims.statusIds = GROUP_STATUSES[2]!;
      break;
    case 'completed':
      conditions.push(`c.status_group_id = ${STATUS_GROUP.Completed}`);
      dims.statusIds = GROUP_STATUSES[3]!;
      break;
    case undefined:
      break;
  }

  const groups = parseIdList(q.status_group_id);
  if (groups) {
    // int[] (not smallint[]): an id past the smallint range matches nothing instead of failing the cast.
    conditions.push(`c.status_group_id = any(${p(groups)}::int[])`);
    dims.statusIds = intersect(
      dims.statusIds,
      groups.flatMap((g) => GROUP_STATUSES[g] ?? []),
    );
  }
  const statuses = parseIdList(q.status_id);
  if (statuses) {
    conditions.push(`c.status_id = any(${p(statuses)}::int[])`);
    dims.statusIds = intersect(
      dims.statusIds,
      statuses.filter((s) => ALL_STATUSES.includes(s)),
    );
  }
  const cycles = parseIdList(q.cycle ?? q.cycle_id);
  if (cycles) {
    conditions.push(`c.cycle_id = any(${p(cycles)}::int[])`);
    dims.cycleIds = cycles;
  }
  if (q.is_fraud !== undefined) {
    conditions.push(`c.is_fraud = ${p(q.is_fraud === 1)}`);
    dims.isFraud = q.is_fraud === 1;
  }
  if (q.mid) {
    const mids = q.mid
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.mids where tenant_id = $1 and mid = any($2::text[])`,
      [scope.tenant, mids],
    );
    dims.midIds = rows.map((r) => Number(r.id));
    conditions.push(`c.mid_id = any(${p(dims.midIds)}::bigint[])`);
  }

  // Everything below is not a case_counts dimension.
  const more: string[] = [];
  const idFilter = (name: keyof CaseListQuery, column: string) => {
    const ids = parseIdList(q[name] as string | undefined);
    if (ids) more.push(`${column} = any(${p(ids)}::int[])`);
  };
  idFilter('card_type_id', 'c.card_type_id');
  idFilter('reason_code_id', 'c.reason_code_id');
  idFilter('verdict_id', 'c.verdict_id');
  idFilter('currency_id', 'c.dispute_currency_id');
  idFilter('source_id', 'c.source_id');
  if (q.assigned_user_id !== undefined) more.push(`c.assigned_user_id = ${p(q.assigned_user_id)}`);
  if (q.is_flagged !== undefined) more.push(`c.is_flagged = ${p(q.is_flagged === 1)}`);
  if (q.case_no) more.push(`lower(c.case_no) like ${p(`${escapeLike(q.case_no.trim().toLowerCase())}%`)}`);
  if (q.order_id) more.push(`lower(c.order_id) like ${p(`${escapeLike(q.order_id.trim().toLowerCase())}%`)}`);
  if (q.arn) more.push(`c.arn like ${p(`${escapeLike(q.arn.trim())}%`)}`);
  if (q.cc_bin) more.push(`c.cc_bin = ${p(q.cc_bin.trim())}`);
  if (q.cc_last_four) more.push(`c.cc_last_four = ${p(q.cc_last_four.trim())}`);
  if (q.descriptor) {
    const d = q.descriptor.trim();
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.descriptors where tenant_id = $1 and (lower(descriptor) = $2 or id::text = $3)`,
      [scope.tenant, d.toLowerCase(), d],
    );
    more.push(`c.descriptor_id = any(${p(rows.map((r) => Number(r.id)))}::bigint[])`);
  }
  const ranges: Array<[keyof CaseListQuery, string]> = [
    ['date_range', 'c.date_post'],
    ['due_date_range', 'c.date_due'],
    ['trans_date_range', 'c.date_trans'],
    ['completed_date_range', 'c.date_completed'],
  ];
  const rangedDates: string[] = [];
  for (const [name, column] of ranges) {
    const range = parseDateRange(q[name] as string | undefined, name);
    if (!range) continue;
    more.push(`${column} between ${p(range.from)}::date and ${p(range.to)}::date`);
    rangedDates.push(column);
  }
  for (const [value, op, column, name] of [
    [q.dispute_amt, q.dispute_amt_operator, 'c.dispute_amt', 'dispute_amt'],
    [q.trans_amt, q.trans_amt_operator, 'c.trans_amt', 'trans_amt'],
  ] as const) {
    if (op !== undefined && value === undefined) throw badRequest(`${name}_operator needs ${name}.`);
    if (value !== undefined) more.push(`${column} ${op ?? '='} ${p(value)}::numeric`);
  }
  const search = q.search?.trim();
  if (search) {
    const prefix = `${escapeLike(search.toLowerCase())}%`;
    // MIDs and merchants matching the term are resolved first: the case query gets plain id lists (index conditions).
    const [mids, merchants] = await Promise.all([
      db.query<{ id: number }>(
        `select id from cases.mids where tenant_id = $1 and (lower(mid) like $2 or lower(alias) like $2)`,
        [scope.tenant, prefix],
      ),
      db.query<{ id: number }>(
        `select id from cases.merchants where tenant_id = $1 and business_name ilike $2`,
        [scope.tenant, `%${escapeLike(search)}%`],
      ),
    ]);
    const arms = [
      `lower(c.case_no) like ${p(prefix)}`,
      `lower(c.order_id) like ${p(prefix)}`,
      `c.arn like ${p(prefix)}`,
    ];
    if (mids.rows.length) arms.push(`c.mid_id = any(${p(mids.rows.map((r) => Number(r.id)))}::bigint[])`);
    if (merchants.rows.length)
      arms.push(`c.merchant_id = any(${p(merchants.rows.map((r) => Number(r.id)))}::bigint[])`);
    if (/^\d{1,15}$/.test(search)) arms.push(`c.id = ${p(Number(search))}`);
    if (/^\d{4}$/.test(search)) arms.push(`c.cc_last_four = ${p(search)}`);
    more.push(`(${arms.join(' or ')})`);
  }
  conditions.push(...more);
  return { scope, conditions, params, countDims: countable && more.length === 0 ? dims : null, rangedDates };
}

interface SortSpec {
  expr: string;
  /** Join needed to sort by a label (only in the key query). */
  join?: string;
  /**
   * A label of a lookup row the case points to: `column` (the case's id of that row) breaks ties between
   * rows of the same label, and `labels` lists the lookup's ids and labels (of the tenant, for its own tables), so a long
   * list is read one lookup row at a time from a (tenant_id, column, id) index instead of being sorted.
   */
  lookup?: { column: string; labels: (tenant: () => string) => string };
}
const lookup = (column: string, table: string, label: string, tenantOwned = false) => ({
  column,
  labels: (tenant: () => string) =>
    `select id, ${label} as label from ${table}${tenantOwned ? ` where tenant_id = ${tenant()}` : ''}`,
});
const SORTS: Record<CaseSortColumn, SortSpec> = {
  id: { expr: 'c.id' },
  case_no: { expr: 'c.case_no' },
  order_id: { expr: 'c.order_id' },
  cycle: {
    expr: 'cy.name',
    join: 'join cases.cycles cy on cy.id = c.cycle_id',
  },
  cycle_id: { expr: 'c.cycle_id' },
  mid: {
    expr: 'mi.mid',
    join: 'join cases.mids mi on mi.id = c.mid_id',
    lookup: lookup('c.mid_id', 'cases.mids', 'mid', true),
  },
  mid_alias: {
    expr: 'mi.alias',
    join: 'join cases.mids mi on mi.id = c.mid_id',
    lookup: lookup('c.mid_id', 'cases.mids', 'alias', true),
  },
  cc_type: {
    expr: 'ct.name',
    join: 'join cases.card_types ct on ct.id = c.card_type_id',
    lookup: lookup('c.card_type_id', 'cases.card_types', 'name'),
  },
  cc_bin: { expr: 'c.cc_bin' },
  cc_no: { expr: 'c.cc_last_four' },
  reason_code: {
    expr: 'rc.code',
    join: 'join cases.reason_codes rc on rc.id = c.reason_code_id',
    lookup: lookup('c.reason_code_id', 'cases.reason_codes', 'code'),
  },
  reason_category: {
    expr: 'rcat.name',
    join: 'join cases.reason_codes rc on rc.id = c.reason_code_id join cases.reason_code_categories rcat on rcat.id = rc.category_id',
  },
  date_post: { expr: 'c.date_post' },
  date_due: { expr: 'c.date_due' },
  date_trans: { expr: 'c.date_trans' },
  date_completed: { expr: 'c.date_completed' },
  date_created: { expr: 'c.date_created' },
  dispute_amt: { expr: 'c.dispute_amt' },
  dispute_currency: {
    expr: 'cur.code',
    join: 'join cases.currencies cur on cur.id = c.dispute_currency_id',
  },
  trans_amt: { expr: 'c.trans_amt' },
  trans_currency: {
    expr: 'tcur.code',
    join: 'left join cases.currencies tcur on tcur.id = c.trans_currency_id',
  },
  status_group: {
    expr: 'sg.name',
    join: 'join cases.status_groups sg on sg.id = c.status_group_id',
    lookup: lookup('c.status_group_id', 'cases.status_groups', 'name'),
  },
  status_group_id: { expr: 'c.status_group_id' },
  status_id: { expr: 'c.status_id' },
  verdict: {
    expr: 'v.name',
    join: 'join cases.verdicts v on v.id = c.verdict_id',
    lookup: lookup('c.verdict_id', 'cases.verdicts', 'name'),
  },
  arn: { expr: 'c.arn' },
  merchant_name: {
    expr: 'm.business_name',
    join: 'join cases.merchants m on m.id = c.merchant_id',
    lookup: lookup('c.merchant_id', 'cases.merchants', 'business_name', true),
  },
  assigned_user: { expr: 'c.assigned_username' },
  processor_invoice_id: { expr: 'c.processor_invoice_id' },
};

export interface CaseSort {
  column: CaseSortColumn;
  expr: string;
  join: string;
  order: 'asc' | 'desc';
  lookup?: SortSpec['lookup'];
}

/** Default: due date ascending (the most urgent first); the id breaks ties so paging is stable. */
export function resolveSort(sortBy: string | undefined, sortOrder: 'asc' | 'desc' | undefined): CaseSort {
  const column = sortBy || 'date_due';
  if (!(CASE_SORT_COLUMNS as readonly string[]).includes(column)) {
    throw badRequest(
      `sort_by: unknown column '${column}'. Sortable columns: ${CASE_SORT_COLUMNS.join(', ')}.`,
    );
  }
  const spec = SORTS[column as CaseSortColumn];
  return {
    column: column as CaseSortColumn,
    expr: spec.expr,
    join: spec.join ?? '',
    order: sortOrder ?? 'asc',
    ...(spec.lookup ? { lookup: spec.lookup } : {}),
  };
}

/** The sort keys in order: the value, the lookup row of a label (ties), the case id. */
export const sortKeys = (sort: Pick<CaseSort, 'expr' | 'lookup'>): string[] => [
  sort.expr,
  ...(sort.lookup ? [sort.lookup.column] : []),
  'c.id',
];

export function orderBy(sort: CaseSort): string {
  return `order by ${sortKeys(sort)
    .map((k) => `${k} ${sort.order}`)
    .join(', ')}`;
}

/** Count of a filter: summed from case_counts when its dimensions allow, else counted. */
export async function countCases(db: Queryable, filter: CaseFilter): Promise<number> {
  const dims = filter.countDims;
  if (!dims) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::bigint as n from cases.cases c where ${filter.conditions.join(' and ')}`,
      filter.params,
    );
    return Number(rows[0]?.n ?? 0);
  }
  const params: unknown[] = [];
  const conditions = scopeConditions(filter.scope, 'k', params);
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (dims.statusIds) add('k.status_id = any(?::int[])', dims.statusIds);
  if (dims.cycleIds) add('k.cycle_id = any(?::int[])', dims.cycleIds);
  if (dims.isFraud !== null) add('k.is_fraud = ?', dims.isFraud);
  if (dims.midIds) add('k.mid_id = any(?::bigint[])', dims.midIds);
  const { rows } = await db.query<{ n: number }>(
    `select coalesce(sum(k.n), 0)::bigint as n from cases.case_counts k where ${conditions.join(' and ')}`,
    params,
  );
  return Number(rows[0]?.n ?? 0);
}
