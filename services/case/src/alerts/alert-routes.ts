import type { FastifyPluginAsync } from 'fastify';
import {
  AlertCompleteBody,
  AlertDescriptorList,
  AlertDescriptorQuery,
  AlertHistoryList,
  AlertHistoryQuery,
  AlertList,
  AlertListQuery,
  AlertMerchantQuery,
  AlertOutcomeBody,
  AlertOutcomeList,
  AlertServiceLevel,
  AlertWriteResult,
  DescriptorMappingBody,
  DescriptorMappingList,
  DescriptorMappingQuery,
  DescriptorMappingResult,
  ErrorResponse,
  Id,
  MailedExportStarted,
} from '@portal/contracts';
import { notFound } from '@portal/core';
import { Type, type Static } from '@sinclair/typebox';
import { countUpTo, exportIsMailed } from '@portal/exports';
import { mailExport } from '../exports/mailed-export-job';
import { findAlert, listAlerts } from './alert-repository';
import { alertExport } from './alert-export';
import { alertScope } from './alert-scope';
import { listMappings, searchDescriptors, setMapping } from './alert-descriptors';
import { completeAlert, markOutcome } from './alert-writes';
import { expressResolveRoutes } from './express-resolve';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const MappingWriteQuery = Type.Object({ merchant_id: Type.Optional(Id()) });

/** Pre-chargeback alerts (spec 2 §7 'Alerts'). Thin: rules live in alert-writes and alert-descriptors. */
export const alertRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;
  await app.register(expressResolveRoutes);

  app.get<{ Querystring: AlertListQuery }>(
    '/cm/svc/alerts',
    { schema: { tags: ['alerts'], querystring: AlertListQuery, response: { 200: AlertList, ...errors } } },
    async (request) => listAlerts(db, request.ctx, request.query),
  );

  app.get<{ Querystring: AlertMerchantQuery }>(
    '/cm/svc/alerts/service-level',
    {
      schema: {
        tags: ['alerts'],
        querystring: AlertMerchantQuery,
        response: { 200: AlertServiceLevel, ...errors },
      },
    },
    async (request) => {
      // The merchant being worked: the switcher's choice, else the user's own (checked against the scope).
      const merchantId = request.query.merchant_id ?? request.query.client_id ?? request.ctx.merchant_id;
      if (merchantId === null || merchantId === undefined)
        return { merchant_id: null, service_level_id: 1, name: 'Basic Service' };
      await alertScope(db, request.ctx, { merchant_id: merchantId });
      const { rows } = await db.query<{ id: number; name: string }>(
        `select sl.id, sl.name from cases.merchants m join cases.service_levels sl on sl.id = m.alerts_service_level_id
         where m.tenant_id = $1 and m.id = $2`,
        [request.ctx.tenant, merchantId],
      );
      if (!rows[0]) throw notFound('Merchant not found.');
      return { merchant_id: merchantId, service_level_id: Number(rows[0].id), name: rows[0].name };
    },
  );

  app.get(
    '/cm/svc/alerts/outcome/dropdown',
    { schema: { tags: ['alerts'], response: { 200: AlertOutcomeList } } },
    async () => {
      const { rows } = await db.query<{ id: number; name: string; kind: string }>(
        'select id, name, kind from cases.alert_outcomes order by id',
      );
      return { data: rows };
    },
  );

  app.get<{ Querystring: DescriptorMappingQuery }>(
    '/cm/svc/alerts/descriptors/mapping',
    {
      schema: {
        tags: ['alerts'],
        querystring: DescriptorMappingQuery,
        response: { 200: DescriptorMappingList, ...errors },
      },
    },
    async (request) => listMappings(db, request.ctx, request.query),
  );

  app.post<{ Querystring: Static<typeof MappingWriteQuery>; Body: DescriptorMappingBody }>(
    '/cm/svc/alerts/descriptors/mapping',
    {
      schema: {
        tags: ['alerts'],
        querystring: MappingWriteQuery,
        body: DescriptorMappingBody,
        response: { 200: DescriptorMappingResult, ...errors },
      },
    },
    async (request) => setMapping(db, request.ctx, request.query.merchant_id, request.body),
  );

  app.get<{ Querystring: AlertHistoryQuery }>(
    '/cm/svc/alerts/history',
    {
      schema: {
        tags: ['alerts'],
        querystring: AlertHistoryQuery,
        response: { 200: AlertHistoryList, ...errors },
      },
    },
    async (request) => {
      const scope = await alertScope(db, request.ctx, request.query);
      if (!(await findAlert(db, scope, request.query.alert_id)))
        throw notFound(`Alert ${request.query.alert_id} not found.`);
      const start = request.query.start ?? 0;
      const limit = request.query.limit ?? null;
      const [count, page] = await Promise.all([
        db.query<{ n: number }>('select count(*)::int as n from cases.alert_history where alert_id = $1', [
          request.query.alert_id,
        ]),
        db.query<{
          id: string;
          date: string;
          username: string | null;
          action: string;
          old_outcome_name: string | null;
          new_outcome_name: string | null;
        }>(
          `select h.id, to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date, h.username, h.action,
             oo.name as old_outcome_name, no.name as new_outcome_name
           from cases.alert_history h
           left join cases.alert_outcomes oo on oo.id = h.old_outcome_id
           left join cases.alert_outcomes no on no.id = h.new_outcome_id
           where h.alert_id = $1 order by h.created_at desc, h.id desc limit $2 offset $3`,
          [request.query.alert_id, limit, start],
        ),
      ]);
      const data = page.rows.map((r) => ({ ...r, id: Number(r.id) }));
      return { data, pagination: { total: count.rows[0]?.n ?? 0, limit: limit ?? data.length, start } };
    },
  );

  app.post<{ Body: AlertOutcomeBody }>(
    '/cm/svc/alerts/outcome',
    { schema: { tags: ['alerts'], body: AlertOutcomeBody, response: { 200: AlertWriteResult, ...errors } } },
    async (request) => markOutcome(db, request.ctx, request.body),
  );

  app.post<{ Body: AlertCompleteBody }>(
    '/cm/svc/alerts/complete',
    { schema: { tags: ['alerts'], body: AlertCompleteBody, response: { 200: AlertWriteResult, ...errors } } },
    async (request) => completeAlert(db, request.ctx, request.body),
  );

  app.get<{ Querystring: AlertDescriptorQuery }>(
    '/cm/svc/descriptors',
    {
      schema: {
        tags: ['alerts'],
        querystring: AlertDescriptorQuery,
        response: { 200: AlertDescriptorList, ...errors },
      },
    },
    async (request) => searchDescriptors(db, request.ctx, request.query),
  );

  // Exports: all rows above EXPORT_MAIL_THRESHOLD_ROWS are answered 202 and mailed (@portal/exports).
  const exportSchema = {
    tags: ['alerts', 'exports'],
    querystring: AlertListQuery,
    response: { 202: MailedExportStarted, ...errors },
  };
  for (const format of ['csv', 'xlsx'] as const) {
    app.get<{ Querystring: AlertListQuery }>(
      `/cm/svc/alerts.${format}`,
      { schema: exportSchema },
      async (request, reply) => {
        const { sql, params, file } = await alertExport(db, request.ctx, request.query, format, (err) =>
          request.log.error({ err }, 'alerts xlsx export failed'),
        );
        const env = app.deps.env;
        if (await exportIsMailed(env, request.query.export_type, () => countUpTo(db, env, sql, params))) {
          const started = await mailExport(db, request.ctx, {
            source: 'alerts',
            format,
            query: request.query,
          });
          if (started) return reply.code(202).send(started);
        }
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .send(file.write());
      },
    );
  }
};
