import type { FastifyPluginAsync } from 'fastify';
import {
  CaseIdParams,
  CaseMoney,
  DashboardQuery,
  ErrorResponse,
  ExchangeRateSummary,
  ExchangeRatesUpload,
  ExchangeRatesUploadResult,
  RECOVERED_REVENUE_COLUMNS,
  RecoveredRevenueQuery,
  RecoveredRevenueRows,
  RecoveredTile,
  isProviderStaff,
  type InternalContext,
} from '@portal/contracts';
import { forbidden, notFound } from '@portal/core';
import { lastDays } from '../scope/dates';
import { narrowToMerchant, resolveScope } from '../scope/scope';
import { buildFilter } from '../reports/report-filter';
import { reportCsv } from '../reports/report-csv';
import { caseMoney } from './case-money';
import { loadRates, parseRatesCsv, rateSummary } from './exchange-rates';
import { recoveredRevenue, recoveredTile } from './money-report';
import { ensureMoneySettings } from './money-settings';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
/** The section's default range: the last twelve months. */
const SECTION_DAYS = 365;
/** Rows shown by reason code or MID (the CSV has them all). */
const SECTION_ROWS = 20;

function assertRateAdmin(ctx: InternalContext, write: boolean): void {
  const roles = ctx.roles.map((r) => r.toLowerCase());
  const allowed = write ? roles.includes('cb911_admin') : isProviderStaff(ctx.roles);
  if (!allowed) throw forbidden('Only the provider’s administrators may manage exchange rates.');
  if (write && ctx.read_only) throw forbidden('Read-only users cannot load exchange rates.');
}

/** The money ledger (issue 33 part 1): the dashboard tile, the /reports section and the exchange rates. */
export const moneyRoutes: FastifyPluginAsync = async (app) => {
  const { db, env } = app.deps;
  const synced = (tenant: string) => ensureMoneySettings(db, env.TENANT_CONFIG_DIR, tenant);

  app.get<{ Params: { id: number } }>(
    '/cm/cases/:id/money',
    { schema: { tags: ['cases'], params: CaseIdParams, response: { 200: CaseMoney, ...errors } } },
    async (request) => {
      await synced(request.ctx.tenant);
      const found = await caseMoney(db, await resolveScope(db, request.ctx), request.params.id);
      if (!found) throw notFound('Case not found.');
      return found;
    },
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/dashboard/recovered',
    {
      schema: {
        tags: ['dashboard'],
        querystring: DashboardQuery,
        response: { 200: RecoveredTile, ...errors },
      },
    },
    async (request) => {
      await synced(request.ctx.tenant);
      const scope = await narrowToMerchant(
        db,
        await resolveScope(db, request.ctx),
        request.query.client_id,
        'client_id',
      );
      return recoveredTile(db, scope);
    },
  );

  const section = async (ctx: InternalContext, q: RecoveredRevenueQuery, all: boolean) => {
    await synced(ctx.tenant);
    const f = await buildFilter(db, ctx, q, lastDays(SECTION_DAYS));
    const group = q.group_by ?? 'month';
    return recoveredRevenue(db, f, group, all || group === 'month' ? null : (q.limit ?? SECTION_ROWS));
  };
  app.get<{ Querystring: RecoveredRevenueQuery }>(
    '/cm/cases/reports/recovered-revenue',
    {
      schema: {
        tags: ['reports'],
        querystring: RecoveredRevenueQuery,
        response: { 200: RecoveredRevenueRows, ...errors },
      },
    },
    async (request) => section(request.ctx, request.query, false),
  );
  app.get<{ Querystring: RecoveredRevenueQuery }>(
    '/cm/cases/reports/recovered-revenue.csv',
    { schema: { tags: ['reports', 'exports'], querystring: RecoveredRevenueQuery, response: errors } },
    async (request, reply) => {
      const result = await section(request.ctx, request.query, true);
      const columns = RECOVERED_REVENUE_COLUMNS.map(({ accessor, label }) => ({
        label: ['Recovered', 'Lost', 'Fees', 'Net Recovered'].includes(label)
          ? `${label} (${result.currency})`
          : label,
        cell: (r: (typeof result.data)[number]) => r[accessor],
      }));
      return reportCsv(
        reply,
        `recovered-revenue-by-${request.query.group_by ?? 'month'}`,
        columns,
        result.data,
      );
    },
  );

  app.get(
    '/cm/money/rates',
    { schema: { tags: ['reports'], response: { 200: ExchangeRateSummary, ...errors } } },
    async (request) => {
      assertRateAdmin(request.ctx, false);
      await synced(request.ctx.tenant);
      return rateSummary(db, request.ctx.tenant);
    },
  );
  app.post<{ Body: ExchangeRatesUpload }>(
    '/cm/money/rates',
    {
      schema: {
        tags: ['reports'],
        body: ExchangeRatesUpload,
        response: { 200: ExchangeRatesUploadResult, ...errors },
      },
    },
    async (request) => {
      assertRateAdmin(request.ctx, true);
      await synced(request.ctx.tenant);
      const rows = await parseRatesCsv(db, request.ctx.tenant, request.body.csv);
      return loadRates(db, request.ctx.tenant, rows);
    },
  );
};
