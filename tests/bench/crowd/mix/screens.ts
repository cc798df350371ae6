import { expectStatus, listOf, type Answer, type Params } from './http';
import {
  chance,
  lastDays,
  monthToDate,
  nextDays,
  pick,
  priorMonths,
  randomInt,
  someMonth,
  weighted,
} from './random';
import { get, lookupOnce, profileOfUser, type OpContext } from './session';
import type { MixState } from './state';

/** The dashboard and the report screens: their calls, all at once as the browser fires them. */

/** The merchant switcher's choice: staff and partners look at one merchant now and then (client_id). */
function switcherMerchant(state: MixState): number | undefined {
  if (!state.profile || state.profile.roles.some((r) => r.startsWith('merchant_'))) return undefined;
  const merchants = [...new Set([...state.cases.values()].map((c) => c.merchantId))];
  return merchants.length && chance(0.15) ? pick(merchants) : undefined;
}

async function all(calls: Array<Promise<Answer>>): Promise<void> {
  for (const answer of await Promise.all(calls)) expectStatus(answer, 200);
}

/**
 * Dashboard (15%), as prefetch-dashboard.ts and its components ask: the
 * tenant's tiles (chargebacks this month, fraud %, expiring in 72 h, MIDs,
 * users), chargebacks by post date (90 days), the pie chart (card type or
 * status) and the top-5 MIDs grid.
 */
export async function dashboard(ctx: OpContext): Promise<void> {
  const profile = await profileOfUser(ctx);
  const layout = ctx.state.tenant;
  const tiles = new Set(layout?.tiles ?? []);
  const clientId = switcherMerchant(ctx.state);
  const mtd = monthToDate();
  const last90 = lastDays(90);
  const calls: Array<Promise<Answer>> = [];
  if (tiles.has('chargebacks_mtd'))
    calls.push(get(ctx, '/api/cm/cases/dashboard/chargebacks-mtd', { client_id: clientId }));
  if (tiles.has('fraud_pct'))
    calls.push(get(ctx, '/api/cm/cases/reports/cases-fraud-pct', { client_id: clientId, date_range: mtd }));
  if (tiles.has('expiring_72h'))
    calls.push(
      get(ctx, '/api/cm/cases', {
        client_id: clientId,
        status_group_id: '1,2',
        limit: 0,
        due_date_range: nextDays(3),
      }),
    );
  if (tiles.has('mids')) calls.push(get(ctx, '/api/cm/cases/reports/mids-count', { client_id: clientId }));
  if (tiles.has('users'))
    calls.push(get(ctx, '/api/users/users', { merchant_id: clientId ?? profile.merchantId, limit: 0 }));
  calls.push(
    get(ctx, '/api/cm/cases/dashboard/chargebacks-by-date-range', {
      client_id: clientId,
      date_range: last90,
    }),
  );
  if ((layout?.pieChart ?? 'card_type') === 'card_type')
    calls.push(
      get(ctx, '/api/cm/cases/reports/chargebacks-by-card-type', {
        client_id: clientId,
        date_range: mtd,
        names: 'Visa,Mastercard,Discover,Amex',
      }),
    );
  else
    calls.push(
      get(ctx, '/api/cm/cases/reports/chargebacks-by-status', { client_id: clientId, date_range: mtd }),
    );
  calls.push(
    get(ctx, '/api/cm/cases/reports/mids-top5', {
      client_id: clientId,
      date_range: last90,
      start: 0,
      limit: 25,
    }),
  );
  await all(calls);
}

/** Top-N charts of /reports and their limit (report-chart.tsx CHART_VIEWS). */
const CHART_LIMITS: Record<string, number | undefined> = {
  'cb-by-reason-code': 5,
  'chargebacks-by-issuer': 5,
  'card-type': 5,
  'percent-chargebacks-by-processor-by-cc-type': 4,
  'cases-by-platform': 5,
  'location-type': 5,
  verdict: 5,
};

/**
 * The /reports filter bar: date range (30 days by default), date reference, and now and then a
 * merchant (switcher), a MID picked through the MID type-ahead (GET /cm/mids of that merchant) and a
 * currency picked through its type-ahead (GET /cm/gen/currencies).
 */
async function reportFilters(ctx: OpContext): Promise<Params> {
  const merchantId = switcherMerchant(ctx.state);
  const filters: Params = {
    merchant_id: merchantId,
    date_reference: chance(0.8) ? 'post' : 'transaction',
    date_range: weighted<string>([
      [lastDays(30), 6],
      [lastDays(7), 1],
      [lastDays(90), 2],
      [someMonth(12), 1],
      [lastDays(365), 1],
    ]),
  };
  const known = [...ctx.state.cases.values()].filter(
    (c) => merchantId === undefined || c.merchantId === merchantId,
  );
  if (known.length && chance(0.1)) {
    const typed = pick(known).mid.slice(0, randomInt(4, 8));
    const mids = await get(ctx, '/api/cm/mids', { search: typed, merchant_id: merchantId, limit: 25 });
    expectStatus(mids, 200);
    const found = listOf<{ id: number }>(mids).data;
    if (found.length) filters.mid_id = pick(found).id;
  }
  if (chance(0.1)) {
    const currencies = await get(ctx, '/api/cm/gen/currencies', { limit: 999 });
    expectStatus(currencies, 200);
    filters.currency_id = pick([1, 2, 3]);
  }
  return filters;
}

/**
 * Reports (5%): mostly /reports (the tenant's charts and the win-rate table,
 * sometimes regrouped), else the MTD report, MID Health or the resultant KPIs.
 */
export async function reports(ctx: OpContext): Promise<void> {
  await profileOfUser(ctx);
  const page = weighted<'reports' | 'mtd' | 'mid-health' | 'kpi'>([
    ['reports', 7],
    ['mtd', 1],
    ['mid-health', 1],
    ['kpi', 1],
  ]);
  const merchantId = switcherMerchant(ctx.state);
  if (page === 'mtd') return all([get(ctx, '/api/cm/cases/reports/mtd', { merchant_id: merchantId })]);
  if (page === 'mid-health')
    return all([
      get(ctx, '/api/cm/cases/reports/mid-health', {
        merchant_id: merchantId,
        date_range: chance(0.7) ? lastDays(30) : lastDays(90),
        rating: 'ALL',
        start: chance(0.8) ? 0 : 50 * randomInt(1, 3),
        limit: 50,
      }),
    ]);
  if (page === 'kpi') {
    await lookupOnce(ctx, 'processors');
    const params = { merchant_id: merchantId, date_range: priorMonths(6) };
    return all([
      get(ctx, '/api/cm/cases/reports/res-kpi/chargebacks', params),
      get(ctx, '/api/cm/cases/reports/res-kpi/alerts', params),
    ]);
  }
  const filters = await reportFilters(ctx);
  const charts = ctx.state.tenant?.reportCharts ?? [];
  await all([
    ...charts.map((chart) => {
      const limit = CHART_LIMITS[chart];
      return get(ctx, `/api/cm/cases/reports/${chart}`, { ...filters, ...(limit ? { limit } : {}) });
    }),
    get(ctx, '/api/cm/cases/reports/win-rate', { ...filters, group_by: 'reason_code', limit: 10 }),
  ]);
  if (chance(0.25)) {
    const groupBy = pick(['card_type', 'merchant']);
    await all([get(ctx, '/api/cm/cases/reports/win-rate', { ...filters, group_by: groupBy, limit: 10 })]);
  }
}
