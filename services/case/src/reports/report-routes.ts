import type { FastifyPluginAsync } from 'fastify';
import {
  AlertsReport,
  AlertsReportQuery,
  ErrorResponse,
  KpiAlerts,
  KpiChargebacks,
  KpiQuery,
  MID_HEALTH_COLUMNS,
  MidHealthList,
  MidHealthQuery,
  MonitoringQuery,
  MonitoringReport,
  MtdQuery,
  MtdReport,
  REPORT_CHARTS,
  ReconciliationCountResult,
  ReconciliationFlagBody,
  ReconciliationFlagResult,
  ReconciliationList,
  ReconciliationQuery,
  ReconciliationReviewBody,
  ReconciliationUnflagBody,
  ReportQuery,
  StatusTotalsReport,
  StatusTotalsReportQuery,
  WinRateQuery,
  WinRateRows,
  reportChartSchema,
  type ReportChart,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { assertWritable } from '../scope/scope';
import { alertsReport } from './alerts-report';
import {
  amountRanges,
  byIssuer,
  byPlatform,
  cardType,
  locationType,
  nonUniqueCustomers,
  platformCardTypes,
  ratioByTransactionPeriod,
  reasonCodes,
  spanByWeek,
  statusTotals,
  verdicts,
} from './charts';
import { kpiAlerts, kpiChargebacks } from './kpi';
import { midHealth, midHealthAll } from './mid-health';
import { monitoring } from './monitoring';
import { monthToDate } from './mtd';
import { reconciliationAll, reconciliation, flagRows, reviewRows, unflagRows } from './reconciliation';
import { RECONCILIATION_COLUMNS, reportCsv } from './report-csv';
import {
  buildFilter,
  lastDays,
  priorMonths,
  reportRange,
  reportScope,
  type ReportFilter,
} from './report-filter';
import { winRate } from './win-rate';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
/** Reports default range: the last 30 days (spec 3 §9). */
const REPORT_DAYS = 30;
/** KPI default range: the prior 6 months (spec 3 §9). */
const KPI_MONTHS = 6;

type ChartRunner = (db: Queryable, f: ReportFilter, q: ReportQuery) => Promise<unknown>;

/** Each chart of the /reports page and its default top-N (spec 3 §7, §9). */
/** cases-status-totals is served on its own: the chargebacks list calls it too, with client_id and no range. */
const CHARTS: Record<Exclude<ReportChart, 'cases-status-totals'>, ChartRunner> = {
  'cb-by-trans-month': (db, f) => ratioByTransactionPeriod(db, f, 'month'),
  'percent-chargebacks-by-trans-amount-range': (db, f) => amountRanges(db, f),
  'chargebacks-by-issuer': (db, f, q) => byIssuer(db, f, q.limit ?? 5, q.label ?? 'bin'),
  'span-between-post-trans-date': (db, f) => spanByWeek(db, f),
  'chargeback-transaction-ratio-by-transaction-date-week': (db, f) => ratioByTransactionPeriod(db, f, 'week'),
  'cb-non-unique-customers': (db, f) => nonUniqueCustomers(db, f),
  'cb-by-reason-code': (db, f, q) => reasonCodes(db, f, q.limit ?? 5),
  'card-type': (db, f, q) => cardType(db, f, q.limit ?? 5),
  verdict: (db, f, q) => verdicts(db, f, q.limit ?? 5),
  'location-type': (db, f, q) => locationType(db, f, q.limit ?? 5),
  'percent-chargebacks-by-processor-by-cc-type': (db, f, q) => platformCardTypes(db, f, q.limit ?? 4),
  'cases-by-platform': (db, f, q) => byPlatform(db, f, q.limit ?? 5),
};

/** Reports and analytics (spec 3 §7 Reports; issue 18). Thin: the queries live beside this file. */
export const reportRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;

  for (const [chart, kind] of Object.entries(REPORT_CHARTS) as Array<
    [ReportChart, (typeof REPORT_CHARTS)[ReportChart]]
  >) {
    if (chart === 'cases-status-totals') continue;
    app.get<{ Querystring: ReportQuery }>(
      `/cm/cases/reports/${chart}`,
      {
        schema: {
          tags: ['reports'],
          querystring: ReportQuery,
          response: { 200: reportChartSchema(kind), ...errors },
        },
      },
      async (request) => {
        const f = await buildFilter(db, request.ctx, request.query, lastDays(REPORT_DAYS));
        return CHARTS[chart](db, f, request.query);
      },
    );
  }

  app.get<{ Querystring: StatusTotalsReportQuery }>(
    '/cm/cases/reports/cases-status-totals',
    {
      schema: {
        tags: ['reports'],
        querystring: StatusTotalsReportQuery,
        response: { 200: StatusTotalsReport, ...errors },
      },
    },
    async (request) => {
      const { client_id, ...q } = request.query;
      const merchantId = q.merchant_id ?? client_id;
      const f = await buildFilter(db, request.ctx, { ...q, merchant_id: merchantId }, lastDays(REPORT_DAYS));
      return statusTotals(db, f, q.date_range === undefined || q.date_range === '');
    },
  );

  const kpiFilter = (ctx: Parameters<typeof buildFilter>[1], q: KpiQuery) =>
    buildFilter(
      db,
      ctx,
      {
        merchant_id: q.merchant_id,
        currency_id: q.currency_id,
        date_range: q.date_range,
        ...(q.platform_id !== undefined && q.platform_id !== -1 ? { platforms: String(q.platform_id) } : {}),
      },
      priorMonths(KPI_MONTHS),
    );
  app.get<{ Querystring: KpiQuery }>(
    '/cm/cases/reports/res-kpi/chargebacks',
    { schema: { tags: ['reports'], querystring: KpiQuery, response: { 200: KpiChargebacks, ...errors } } },
    async (request) => kpiChargebacks(db, await kpiFilter(request.ctx, request.query)),
  );
  app.get<{ Querystring: KpiQuery }>(
    '/cm/cases/reports/res-kpi/alerts',
    { schema: { tags: ['reports'], querystring: KpiQuery, response: { 200: KpiAlerts, ...errors } } },
    async (request) => kpiAlerts(db, await kpiFilter(request.ctx, request.query)),
  );

  const healthFilter = (ctx: Parameters<typeof buildFilter>[1], q: MidHealthQuery) =>
    buildFilter(db, ctx, { merchant_id: q.merchant_id, date_range: q.date_range }, lastDays(REPORT_DAYS));
  app.get<{ Querystring: MidHealthQuery }>(
    '/cm/cases/reports/mid-health',
    {
      schema: { tags: ['reports'], querystring: MidHealthQuery, response: { 200: MidHealthList, ...errors } },
    },
    async (request) => midHealth(db, await healthFilter(request.ctx, request.query), request.query),
  );
  app.get<{ Querystring: MidHealthQuery }>(
    '/cm/cases/reports/mid-health.csv',
    { schema: { tags: ['reports', 'exports'], querystring: MidHealthQuery, response: errors } },
    async (request, reply) => {
      const rows = await midHealthAll(db, await healthFilter(request.ctx, request.query), request.query);
      return reportCsv(
        reply,
        'mid-health',
        MID_HEALTH_COLUMNS.map(({ accessor, label }) => ({
          label,
          cell: (r: (typeof rows)[number]) => r[accessor],
        })),
        rows,
      );
    },
  );

  const reconFilter = (ctx: Parameters<typeof buildFilter>[1], q: ReconciliationQuery) =>
    buildFilter(
      db,
      ctx,
      { merchant_id: q.merchant_id, date_range: q.date_range, platforms: q.platforms },
      lastDays(REPORT_DAYS),
    );
  app.get<{ Querystring: ReconciliationQuery }>(
    '/cm/cases/reports/reconciliation',
    {
      schema: {
        tags: ['reports'],
        querystring: ReconciliationQuery,
        response: { 200: ReconciliationList, ...errors },
      },
    },
    async (request) =>
      reconciliation(db, await reconFilter(request.ctx, request.query), request.ctx, request.query),
  );
  app.get<{ Querystring: ReconciliationQuery }>(
    '/cm/cases/reports/reconciliation.csv',
    { schema: { tags: ['reports', 'exports'], querystring: ReconciliationQuery, response: errors } },
    async (request, reply) => {
      const rows = await reconciliationAll(db, await reconFilter(request.ctx, request.query), request.ctx);
      return reportCsv(reply, 'reconciliation', RECONCILIATION_COLUMNS, rows);
    },
  );
  /** Flag and review calls may name any day the caller's scope has chargebacks on. */
  const writeFilter = async (ctx: Parameters<typeof buildFilter>[1], merchantId: number | undefined) => {
    assertWritable(ctx);
    return { ...(await buildFilter(db, ctx, { merchant_id: merchantId }, lastDays(REPORT_DAYS))) };
  };
  app.post<{ Body: ReconciliationFlagBody }>(
    '/cm/cases/reports/reconciliation/flag/bulk',
    {
      schema: {
        tags: ['reports'],
        body: ReconciliationFlagBody,
        response: { 200: ReconciliationFlagResult, ...errors },
      },
    },
    async (request) =>
      flagRows(db, await writeFilter(request.ctx, request.body.merchant_id), request.ctx, request.body),
  );
  app.post<{ Body: ReconciliationUnflagBody }>(
    '/cm/cases/reports/reconciliation/flag/delete',
    {
      schema: {
        tags: ['reports'],
        body: ReconciliationUnflagBody,
        response: { 200: ReconciliationCountResult, ...errors },
      },
    },
    async (request) => {
      assertWritable(request.ctx);
      return unflagRows(db, request.ctx, request.body.ids);
    },
  );
  app.post<{ Body: ReconciliationReviewBody }>(
    '/cm/cases/reports/reconciliation/review',
    {
      schema: {
        tags: ['reports'],
        body: ReconciliationReviewBody,
        response: { 200: ReconciliationCountResult, ...errors },
      },
    },
    async (request) =>
      reviewRows(db, await writeFilter(request.ctx, request.body.merchant_id), request.ctx, request.body),
  );

  app.get<{ Querystring: MtdQuery }>(
    '/cm/cases/reports/mtd',
    { schema: { tags: ['reports'], querystring: MtdQuery, response: { 200: MtdReport, ...errors } } },
    async (request) =>
      monthToDate(db, await buildFilter(db, request.ctx, request.query, lastDays(REPORT_DAYS))),
  );

  app.get<{ Querystring: AlertsReportQuery }>(
    '/cm/cases/reports/alerts',
    {
      schema: {
        tags: ['reports'],
        querystring: AlertsReportQuery,
        response: { 200: AlertsReport, ...errors },
      },
    },
    async (request) =>
      alertsReport(
        db,
        await reportScope(db, request.ctx, request.query.merchant_id),
        reportRange(request.query.date_range, lastDays(REPORT_DAYS)),
      ),
  );

  app.get<{ Querystring: MonitoringQuery }>(
    '/cm/cases/reports/monitoring',
    {
      schema: {
        tags: ['reports'],
        querystring: MonitoringQuery,
        response: { 200: MonitoringReport, ...errors },
      },
    },
    async (request) =>
      monitoring(
        db,
        await reportScope(db, request.ctx, request.query.merchant_id),
        request.query.month,
        request.query.limit ?? 200,
      ),
  );

  app.get<{ Querystring: WinRateQuery }>(
    '/cm/cases/reports/win-rate',
    { schema: { tags: ['reports'], querystring: WinRateQuery, response: { 200: WinRateRows, ...errors } } },
    async (request) => {
      const f = await buildFilter(db, request.ctx, request.query, lastDays(REPORT_DAYS));
      return winRate(db, f, request.query.group_by ?? 'reason_code', request.query.limit ?? 10);
    },
  );
};
