import { DEMO_TENANTS, DEMO_USERS, demoUserId } from '@portal/contracts';
import type { Params } from './http';
import { searchTermOf } from './case-pool';
import {
  chance,
  isoDate,
  lastDays,
  monthToDate,
  nextDays,
  pick,
  randomInt,
  sample,
  someMonth,
  weighted,
} from './random';
import { isStaff, type MixState } from './state';

/**
 * The query of a case list as the grid sends it (web/src/features/cases:
 * case-list.tsx, use-case-list-state.ts, panel-filters.ts, advanced-search):
 * intent, the merchant switcher's client_id, the tab's filter_group, either a
 * filter panel row or the advanced search, the search box, then paging and
 * sorting. Values come from the seeded data and the user's own lists.
 */

/** The case-management tabs (case-list-tabs.tsx) by how often people open them. */
const TABS: ReadonlyArray<readonly [string, number]> = [
  ['working_cases', 40],
  ['new_cases', 15],
  ['expiring_cases', 10],
  ['assigned', 10],
  ['in_progress', 10],
  ['dnr', 5],
  ['expired', 5],
  ['completed', 5],
];

/** Sortable grid columns (CASE_SORT_COLUMNS) people click, some of them sorted through a joined label. */
const SORTS: ReadonlyArray<readonly [string, number]> = [
  ['date_due', 20],
  ['date_post', 20],
  ['dispute_amt', 12],
  ['id', 8],
  ['case_no', 6],
  ['status_group', 6],
  ['reason_code', 5],
  ['cc_type', 5],
  ['merchant_name', 4],
  ['date_trans', 4],
  ['mid', 3],
  ['verdict', 3],
  ['assigned_user', 2],
  ['order_id', 2],
];

/** The grid's page sizes (PAGE_SIZES), 50 by default. */
const PAGE_SIZES: ReadonlyArray<readonly [number, number]> = [
  [50, 60],
  [25, 15],
  [100, 15],
  [10, 10],
];

/** Reason code ids per card type id (services/case/migrations/001_reference.sql). */
const REASON_CODES: Record<number, number[]> = {
  1: [101, 102, 103, 104, 105, 111, 112, 113, 121, 122, 123, 124, 125, 126, 131, 132, 133, 135, 136, 137],
  2: [201, 202, 203, 204, 205, 206, 211, 221, 222, 231, 232, 233, 234, 235],
  3: [301, 302, 303, 304, 305, 311, 312, 321, 322, 323, 331, 332, 333, 334, 335],
  4: [401, 402, 403, 404, 411, 421, 422, 431, 432, 433, 434, 435],
};

/** Words of the seeded merchant names ('Acme Golden Goods'), matched anywhere in the name. */
const MERCHANT_WORDS = [
  'Golden',
  'Urban',
  'Silver',
  'Pacific',
  'Maple',
  'Blue Sky',
  'Copper',
  'Travel',
  'Outdoors',
];

/** The filter panel rows (panel-filters.ts). */
function panelQuery(): Params {
  return weighted<Params>([
    [{ cycle: '9' }, 1],
    [{ cycle: '1' }, 3],
    [{ cycle: '2' }, 2],
    [{ cycle: '1', is_fraud: 1 }, 2],
    [{ cycle: '1', is_fraud: 0 }, 2],
    [{ filter_group: 'primary_case_expire', primary_case_due_days: pick([7, 7, 3, 14, 30]) }, 2],
  ]);
}

function tenantNumber(tenant: string): number {
  return DEMO_TENANTS.find((t) => t.id === tenant)?.number ?? 1;
}

/** The manager's and the agent's ids: the assignees of the seeded cases. */
export function staffIds(tenant: string): number[] {
  const t = DEMO_TENANTS.find((x) => x.id === tenant) ?? DEMO_TENANTS[0]!;
  return DEMO_USERS.filter((u) => u.role === 'cb911_manager' || u.role === 'cb911_agent').map((u) =>
    demoUserId(t, u),
  );
}

/** A search of the box: mostly something seen in the user's lists, else a value every tenant has. */
function searchText(state: MixState, tenant: string): string {
  const seen = [...state.cases.values()];
  if (seen.length && chance(0.8)) return searchTermOf(pick(seen));
  const month = new Date();
  month.setMonth(month.getMonth() - randomInt(1, 12));
  const yymm = isoDate(month).slice(2, 7).replace('-', '');
  return weighted<string>([
    [pick(MERCHANT_WORDS), 3],
    [`ORD-${randomInt(1, 9)}${randomInt(0, 9)}`, 2],
    [`${yymm}${randomInt(1, 28).toString().padStart(2, '0')}${tenantNumber(tenant)}`, 3],
    [String(randomInt(0, 9999)).padStart(4, '0'), 2],
  ]);
}

/** One to three advanced search fields (cases_advanced_filters), each with a value that exists. */
function advancedQuery(state: MixState, tenant: string): Params {
  const q: Params = {};
  const seen = [...state.cases.values()];
  const staff = isStaff(state.profile);
  const fields = sample(
    [
      'date_post',
      'date_post',
      'date_due',
      'cc_type',
      'reason_code',
      'verdict',
      'dispute_amt',
      'is_fraud',
      'mid',
      'case_no',
      'order_id',
      ...(staff ? ['assigned_user_id'] : []),
    ],
    randomInt(1, 3),
  );
  let cardType: number | undefined;
  for (const f of new Set(fields)) {
    if (f === 'date_post')
      q.date_range = weighted<string>([
        [lastDays(30), 4],
        [lastDays(90), 3],
        [monthToDate(), 2],
        [someMonth(17), 3],
        [lastDays(365), 1],
      ]);
    else if (f === 'date_due') q.due_date_range = chance(0.7) ? nextDays(pick([3, 7, 14, 30])) : lastDays(30);
    else if (f === 'cc_type') {
      const types = sample([1, 2, 3, 4], chance(0.7) ? 1 : 2);
      cardType = types.length === 1 ? types[0] : undefined;
      q.card_type_id = types.join(',');
    } else if (f === 'reason_code') {
      const codes = REASON_CODES[cardType ?? pick([1, 2, 3, 4])]!;
      q.reason_code_id = sample(codes, randomInt(1, 3)).join(',');
    } else if (f === 'verdict') q.verdict_id = pick([3, 4, 5, 6]);
    else if (f === 'dispute_amt') {
      q.dispute_amt = pick([25, 50, 100, 250, 500, 1000]);
      q.dispute_amt_operator = pick(['>=', '>=', '<', '>']);
    } else if (f === 'is_fraud') q.is_fraud = pick([0, 1]);
    else if (f === 'mid' && seen.length)
      q.mid = [...new Set(sample(seen, randomInt(1, 3)).map((c) => c.mid))].join(',');
    else if (f === 'case_no' && seen.length) q.case_no = pick(seen).caseNo.slice(0, randomInt(6, 9));
    else if (f === 'order_id' && seen.length)
      q.order_id = (pick(seen).orderId ?? 'ORD-1').slice(0, randomInt(5, 9));
    else if (f === 'assigned_user_id') q.assigned_user_id = pick(staffIds(tenant));
  }
  return q;
}

export interface CaseListRequest {
  /** The list's query without paging and sorting. */
  query: Params;
  /** The query of the filter panel's counts (the list's tab, merchant and fixed filters). */
  filterBase: Params;
  pageSize: number;
  sort: { by: string; order: 'asc' | 'desc' } | undefined;
}

/** A list someone opens: the view, its tab, filters, search, sort and page size. */
export function caseListRequest(state: MixState, tenant: string): CaseListRequest {
  const view = chance(0.55) ? 'chargebacks' : 'case-management';
  const merchants = [...new Set([...state.cases.values()].map((c) => c.merchantId))];
  // The merchant switcher: staff and partners narrow the lists to one merchant now and then.
  const switcher = state.profile && !state.profile.roles.some((r) => r.startsWith('merchant_'));
  const clientId = switcher && merchants.length && chance(0.15) ? pick(merchants) : undefined;
  const filterBase: Params = { intent: view, client_id: clientId };
  if (view === 'case-management') filterBase.filter_group = weighted(TABS);
  const query: Params = { ...filterBase };
  const filters = weighted<'none' | 'panel' | 'advanced'>([
    ['none', 45],
    ['panel', 15],
    ['advanced', 40],
  ]);
  if (filters === 'panel') Object.assign(query, panelQuery());
  if (filters === 'advanced') Object.assign(query, advancedQuery(state, tenant));
  if (chance(0.25)) query.search = searchText(state, tenant);
  const sort = chance(0.5)
    ? { by: weighted(SORTS), order: chance(0.5) ? ('asc' as const) : ('desc' as const) }
    : undefined;
  return { query, filterBase, pageSize: weighted(PAGE_SIZES), sort };
}

/** A page of that list: the grid's start, limit, sort_by, sort_order after the list's query. */
export function pageParams(request: CaseListRequest, page: number): Params {
  return {
    ...request.query,
    start: page * request.pageSize,
    limit: request.pageSize,
    sort_by: request.sort?.by,
    sort_order: request.sort?.order,
  };
}
