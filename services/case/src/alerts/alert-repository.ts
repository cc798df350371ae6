import {
  ALERTS_DEFAULT_DAYS,
  type AlertList,
  type AlertListQuery,
  type AlertRow,
  type AlertSortColumn,
  type InternalContext,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { Scope } from '../scope/scope';
import { alertDateRange, alertScope, alertScopeConditions } from './alert-scope';

const ts = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** Every column of a row; FROM joins the small lookups (all by primary key). */
const ALERT_COLUMNS = `a.id as alert_id, a.merchant_id, m.business_name as account, s.name as source, a.source_id,
  a.order_id, a.trans_amount::float8 as trans_amount, cur.code as currency, to_char(a.trans_date, 'YYYY-MM-DD') as trans_date,
  coalesce(a.cc_bin, '') || '******' || coalesce(a.cc_last_four, '') as cc_num, ct.name as cc_type,
  ad.descriptor, a.descriptor_id, mi.mid, ad.mid_id, ${ts('a.alert_date')} as alert_date,
  ${ts('a.expiration_date')} as expiration_date, ${ts('a.completed_date')} as completed_date, a.completed,
  a.completed_username as completed_by,
  case when a.completed then 'Completed' when a.outcome_id is not null then 'Marked' else 'Open' end as status,
  o.name as outcome, a.outcome_id, a.refund_id, a.customer_name, a.case_id, m.alerts_service_level_id as service_level_id`;

/** The small lookups of a row (all by primary key), after `from <alerts as a>`. */
const ALERT_JOINS = `join cases.alert_descriptors ad on ad.id = a.descriptor_id
  join cases.merchants m on m.id = a.merchant_id
  join cases.sources s on s.id = a.source_id
  join cases.currencies cur on cur.id = a.currency_id
  join cases.card_types ct on ct.id = a.card_type_id
  left join cases.mids mi on mi.id = ad.mid_id
  left join cases.alert_outcomes o on o.id = a.outcome_id`;

const ALERT_FROM = `from cases.alerts a ${ALERT_JOINS}`;

const SORT_SQL: Record<AlertSortColumn, string> = {
  alert_id: 'a.id',
  account: 'm.business_name',
  source: 's.name',
  order_id: 'a.order_id',
  trans_amount: 'a.trans_amount',
  currency: 'cur.code',
  trans_date: 'a.trans_date',
  cc_num: 'a.cc_last_four',
  cc_type: 'ct.name',
  descriptor: 'ad.descriptor',
  mid: 'mi.mid',
  alert_date: 'a.alert_date',
  expiration_date: 'a.expiration_date',
  completed_date: 'a.completed_date',
  completed_by: 'a.completed_username',
  outcome: 'o.name',
  status: '(case when a.completed then 2 when a.outcome_id is not null then 1 else 0 end)',
};

interface SqlRow extends Omit<AlertRow, 'alert_id' | 'merchant_id' | 'descriptor_id' | 'mid_id' | 'case_id'> {
  alert_id: string | number;
  merchant_id: string | number;
  descriptor_id: string | number;
  mid_id: string | number | null;
  case_id: string | number | null;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

export function toAlertRow(r: SqlRow): AlertRow {
  return {
    ...r,
    alert_id: Number(r.alert_id),
    merchant_id: Number(r.merchant_id),
    descriptor_id: Number(r.descriptor_id),
    mid_id: num(r.mid_id),
    case_id: num(r.case_id),
    outcome_id: num(r.outcome_id),
    service_level_id: Number(r.service_level_id),
    source_id: Number(r.source_id),
  };
}

interface AlertFilter {
  conditions: string[];
  params: unknown[];
  /** The conditions name the descriptor (alias ad): MID scope or the descriptor filter. */
  usesDescriptor: boolean;
  /** The total as a sum of the daily counts: set when only tenant, merchants and whole days filter. */
  dailyCount: { sql: string; params: unknown[] } | null;
}

/** Sorts on a column of the alert itself: the page can be chosen before the lookups are joined. */
const OWN_SORT = new Set<AlertSortColumn>([
  'alert_id',
  'order_id',
  'trans_amount',
  'trans_date',
  'cc_num',
  'alert_date',
  'expiration_date',
  'completed_date',
  'completed_by',
  'status',
]);

/** The WHERE of a list or export: scope, date range, descriptor and search. */
async function buildAlertFilter(
  db: Queryable,
  ctx: InternalContext,
  q: AlertListQuery,
): Promise<AlertFilter> {
  const scope = await alertScope(db, ctx, q);
  const range = alertDateRange(q.date_range, ALERTS_DEFAULT_DAYS);
  const params: unknown[] = [];
  const conditions = alertScopeConditions(scope, params);
  let usesDescriptor = scope.midsAllowed !== null || scope.midsExcluded.length > 0;
  const daily = {
    sql: `select coalesce(sum(n), 0)::int as n from cases.alert_daily_counts
          where tenant_id = $1 and day between $2::date and $3::date
          ${scope.merchantIds !== null ? 'and merchant_id = any($4::bigint[])' : ''}`,
    params: [scope.tenant, range.from, range.to, ...(scope.merchantIds !== null ? [scope.merchantIds] : [])],
  };
  params.push(range.from, range.to);
  conditions.push(
    `a.alert_date >= ($${params.length - 1}::date::timestamp at time zone 'UTC')`,
    `a.alert_date < (($${params.length}::date + 1)::timestamp at time zone 'UTC')`,
  );
  const descriptor = q.descriptor?.trim();
  if (descriptor) {
    params.push(descriptor);
    const text = `lower(ad.descriptor) = lower($${params.length})`;
    // A number may be a descriptor id too; it gets its own parameter (one parameter cannot be both text and bigint).
    if (/^\d{1,15}$/.test(descriptor)) {
      params.push(Number(descriptor));
      conditions.push(`(ad.id = $${params.length} or ${text})`);
    } else conditions.push(text);
    usesDescriptor = true;
  }
  const search = q.search?.trim();
  if (search) {
    params.push(search.toLowerCase(), scope.tenant);
    const p = `$${params.length - 1}`;
    const tenant = `$${params.length}`;
    // Every branch on the alert itself, each with its index, so the planner can OR bitmaps.
    const parts = [
      `lower(a.order_id) like ${p} || '%'`,
      `a.descriptor_id = any(array(select x.id from cases.alert_descriptors x
         where x.tenant_id = ${tenant} and lower(x.descriptor) like ${p} || '%'))`,
      `a.cc_last_four = ${p}`,
      `lower(a.refund_id) like ${p} || '%'`,
    ];
    if (/^\d{1,15}$/.test(search)) parts.push(`a.id = ${p}::bigint`);
    conditions.push(`(${parts.join(' or ')})`);
  }
  return { conditions, params, usesDescriptor, dailyCount: usesDescriptor || search ? null : daily };
}

/** Sort columns that may be null: they sort last either way. The others keep plain order, which an index gives. */
const NULLABLE_SORT = new Set<AlertSortColumn>([
  'order_id',
  'cc_num',
  'completed_date',
  'completed_by',
  'mid',
  'outcome',
]);

function alertOrderBy(q: AlertListQuery): string {
  const sort = q.sort_by ?? 'alert_date';
  const order = q.sort_order ?? (q.sort_by ? 'asc' : 'desc');
  return `order by ${SORT_SQL[sort]} ${order}${NULLABLE_SORT.has(sort) ? ' nulls last' : ''}, a.id ${order}`;
}

/** Up to this many matches a search's hits are collected and sorted; beyond it an index walk is cheaper. */
const FEW_HITS = 5000;

/**
 * A search counts its matches up to this many, then answers it as a lower bound: a search that matches
 * most of a tenant's million alerts ('ord-') would otherwise read them all for the pager's total.
 */
export const SEARCH_COUNT_CAP = 10_000;

/**
 * One page of alerts and the total (paging and sorting in SQL; limit=0
 * answers the count only). Sorted on a column of the alert, the page is
 * picked from the alerts alone (an index walk stops after it) and only its
 * rows are joined to the lookups. A search is counted first: its few hits
 * (found through one index per field) are collected and sorted, because the
 * planner, over-estimating them, would walk the sort index past all the rows.
 */
export async function listAlerts(db: Queryable, ctx: InternalContext, q: AlertListQuery): Promise<AlertList> {
  const filter = await buildAlertFilter(db, ctx, q);
  const limit = q.limit ?? 50;
  const start = q.start ?? 0;
  const where = filter.conditions.join(' and ');
  const alerts = `cases.alerts a${filter.usesDescriptor ? ' join cases.alert_descriptors ad on ad.id = a.descriptor_id' : ''}`;
  const search = Boolean(q.search?.trim());
  const counting = filter.dailyCount
    ? db.query<{ n: number }>(filter.dailyCount.sql, filter.dailyCount.params)
    : search
      ? db.query<{ n: number }>(
          `select count(*)::int as n from (select 1 from ${alerts} where ${where} limit ${SEARCH_COUNT_CAP + 1}) x`,
          filter.params,
        )
      : db.query<{ n: number }>(`select count(*)::int as n from ${alerts} where ${where}`, filter.params);
  const pageOf = (total: number | null) => {
    if (limit === 0) return Promise.resolve({ rows: [] as SqlRow[] });
    const params = [...filter.params, limit, start];
    const paging = `limit $${params.length - 1} offset $${params.length}`;
    const order = alertOrderBy(q);
    if (!OWN_SORT.has(q.sort_by ?? 'alert_date'))
      return db.query<SqlRow>(
        `select ${ALERT_COLUMNS} ${ALERT_FROM} where ${where} ${order} ${paging}`,
        params,
      );
    const picked =
      total !== null && total <= FEW_HITS
        ? `with hits as materialized (select a.* from ${alerts} where ${where})
           select a.* from hits a ${order} ${paging}`
        : `select a.* from ${alerts} where ${where} ${order} ${paging}`;
    return db.query<SqlRow>(`select ${ALERT_COLUMNS} from (${picked}) a ${ALERT_JOINS} ${order}`, params);
  };
  if (search) {
    const count = await counting;
    const n = count.rows[0]?.n ?? 0;
    const page = await pageOf(n);
    const pagination =
      n > SEARCH_COUNT_CAP
        ? { total: SEARCH_COUNT_CAP, limit, start, total_is_lower_bound: true }
        : { total: n, limit, start };
    return { data: page.rows.map(toAlertRow), pagination };
  }
  const [count, page] = await Promise.all([counting, pageOf(null)]);
  return { data: page.rows.map(toAlertRow), pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}

/** The SQL of every matching row, sorted, for the exports (export_type=page: this page only). */
export async function alertExportQuery(
  db: Queryable,
  ctx: InternalContext,
  q: AlertListQuery,
): Promise<{ sql: string; params: unknown[] }> {
  const filter = await buildAlertFilter(db, ctx, q);
  const params = [...filter.params];
  let paging = '';
  if (q.export_type === 'page') {
    params.push(q.limit ?? 50, q.start ?? 0);
    paging = `limit $${params.length - 1} offset $${params.length}`;
  }
  return {
    sql: `select ${ALERT_COLUMNS} ${ALERT_FROM} where ${filter.conditions.join(' and ')} ${alertOrderBy(q)} ${paging}`,
    params,
  };
}

/** One alert if it is in the scope, else null; `lock` takes a row lock for a write. */
export async function findAlert(
  db: Queryable,
  scope: Scope,
  id: number,
  lock = false,
): Promise<AlertRow | null> {
  // Locked on its own first: a locking select with joins would recheck an alert changed meanwhile against
  // the joined rows it read before, and miss it (lockCases in case-writes.ts).
  if (lock)
    await db.query('select 1 from cases.alerts where tenant_id = $1 and id = $2 for update', [
      scope.tenant,
      id,
    ]);
  const params: unknown[] = [];
  const conditions = alertScopeConditions(scope, params);
  params.push(id);
  const { rows } = await db.query<SqlRow>(
    `select ${ALERT_COLUMNS} ${ALERT_FROM} where ${conditions.join(' and ')} and a.id = $${params.length}`,
    params,
  );
  return rows[0] ? toAlertRow(rows[0]) : null;
}
