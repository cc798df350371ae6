import type { FastifyPluginAsync } from 'fastify';
import { CaseListQuery, ErrorResponse, MailedExportStarted } from '@portal/contracts';
import { countUpTo, exportIsMailed } from '@portal/exports';
import { caseExport } from './case-export';
import { mailExport } from './mailed-export-job';

/**
 * GET /cm/cases.csv and /cm/cases.xlsx: the list's filters and sort, all rows
 * (export_type=all, the default) or the page (export_type=page), streamed so
 * 100,000 rows never sit in memory. All rows above EXPORT_MAIL_THRESHOLD_ROWS
 * are answered 202 and mailed instead (@portal/exports).
 */
export const exportRoutes: FastifyPluginAsync = async (app) => {
  const { db, env } = app.deps;
  const schema = {
    tags: ['exports'],
    querystring: CaseListQuery,
    response: { 202: MailedExportStarted, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
  };

  for (const format of ['csv', 'xlsx'] as const) {
    app.get<{ Querystring: CaseListQuery }>(`/cm/cases.${format}`, { schema }, async (request, reply) => {
      const { sql, params, file } = await caseExport(db, request.ctx, request.query, format, (err) =>
        request.log.error({ err }, 'cases xlsx export failed'),
      );
      if (await exportIsMailed(env, request.query.export_type, () => countUpTo(db, env, sql, params))) {
        const started = await mailExport(db, request.ctx, { source: 'cases', format, query: request.query });
        if (started) return reply.code(202).send(started);
      }
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.write());
    });
  }
};
