import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  CardTypeCountRows,
  CountResult,
  DashboardQuery,
  DateCountRows,
  ErrorResponse,
  FraudPct,
  MidTop5List,
  MidTop5Query,
  StatusCountRows,
} from '@portal/contracts';
import { badRequest } from '@portal/core';
import { lastDays, parseDateRange, type DateRange } from '../scope/dates';
import { narrowToMerchant, resolveScope, type Scope } from '../scope/scope';
import {
  byCardType,
  byDate,
  byStatus,
  countPosted,
  fraudPct,
  midsCount,
  midsTop5,
  monthToDate,
} from './dashboard-repository';

const DEFAULT_CARD_NAMES = ['Visa', 'Mastercard', 'Discover', 'Amex'];
/** Longest chart range: three years of days. */
const MAX_RANGE_DAYS = 1100;

function range(value: string | undefined, fallback: DateRange): DateRange {
  const r = parseDateRange(value, 'date_range') ?? fallback;
  if ((Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 > MAX_RANGE_DAYS)
    throw badRequest(`date_range may span at most ${MAX_RANGE_DAYS} days.`);
  return r;
}

/** Dashboard tiles and charts (spec 1 §2.5, §7); paths listed in packages/contracts/src/dashboard.ts. */
export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;
  const scopeOf = async (request: FastifyRequest<{ Querystring: DashboardQuery }>): Promise<Scope> =>
    narrowToMerchant(db, await resolveScope(db, request.ctx), request.query.client_id, 'client_id');
  const schema = (response: object) => ({
    tags: ['dashboard'],
    querystring: DashboardQuery,
    response: { 200: response, 400: ErrorResponse },
  });

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/dashboard/chargebacks-mtd',
    { schema: schema(CountResult) },
    async (request) => ({
      count: await countPosted(db, await scopeOf(request), monthToDate()),
    }),
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/reports/cases-fraud-pct',
    { schema: schema(FraudPct) },
    async (request) => fraudPct(db, await scopeOf(request), range(request.query.date_range, lastDays(90))),
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/reports/mids-count',
    { schema: schema(CountResult) },
    async (request) => ({
      count: await midsCount(
        db,
        await scopeOf(request),
        parseDateRange(request.query.date_range, 'date_range') ?? null,
      ),
    }),
  );

  app.get<{ Querystring: MidTop5Query }>(
    '/cm/cases/reports/mids-top5',
    {
      schema: {
        tags: ['dashboard'],
        querystring: MidTop5Query,
        response: { 200: MidTop5List, 400: ErrorResponse },
      },
    },
    async (request) =>
      midsTop5(db, await scopeOf(request), range(request.query.date_range, lastDays(90)), request.query),
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/dashboard/chargebacks-by-date-range',
    { schema: schema(DateCountRows) },
    async (request) => byDate(db, await scopeOf(request), range(request.query.date_range, lastDays(90))),
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/reports/chargebacks-by-status',
    { schema: schema(StatusCountRows) },
    async (request) => byStatus(db, await scopeOf(request), range(request.query.date_range, monthToDate())),
  );

  app.get<{ Querystring: DashboardQuery }>(
    '/cm/cases/reports/chargebacks-by-card-type',
    { schema: schema(CardTypeCountRows) },
    async (request) => {
      const names =
        request.query.names
          ?.split(',')
          .map((n) => n.trim())
          .filter(Boolean) ?? DEFAULT_CARD_NAMES;
      return byCardType(
        db,
        await scopeOf(request),
        range(request.query.date_range, monthToDate()),
        names.length ? names : DEFAULT_CARD_NAMES,
      );
    },
  );
};
