import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  UPDATER_MAX_BYTES,
  UPDATER_TEMPLATE,
  UpdaterBody,
  UpdaterCreated,
  UpdaterList,
  UpdaterListQuery,
  UpdaterUploadQuery,
  UploadLinkAnswer,
} from '@portal/contracts';
import { caseObjectStore, csvText, csvUploadLink } from '../onboarding/csv-file';
import { assertUpdater, listUpdates, submitUpdate, UPDATER_AREA } from './updater';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['case-updater'];

/** Case updater (spec 3 §2, §7): upload link, submit (queues the job), history with result files, template. */
export const caseUpdaterRoutes: FastifyPluginAsync = async (app) => {
  const { db, env, log } = app.deps;
  const store = () => caseObjectStore(env, log);

  app.get<{ Querystring: { filename?: string } }>(
    '/cm/cases/updater/upload',
    { schema: { tags, querystring: UpdaterUploadQuery, response: { 200: UploadLinkAnswer, ...errors } } },
    async (request) => {
      assertUpdater(request.ctx);
      return csvUploadLink(
        await store(),
        request.ctx.tenant,
        UPDATER_AREA,
        request.query.filename,
        UPDATER_MAX_BYTES,
      );
    },
  );

  app.post<{ Body: UpdaterBody }>(
    '/cm/cases/updater',
    {
      schema: {
        tags,
        body: UpdaterBody,
        response: { 200: UpdaterCreated, ...errors },
      },
    },
    async (request) => submitUpdate(db, await store(), request.ctx, request.body),
  );

  app.get<{ Querystring: UpdaterListQuery }>(
    '/cm/cases/updater',
    { schema: { tags, querystring: UpdaterListQuery, response: { 200: UpdaterList, ...errors } } },
    async (request) => listUpdates(db, await store(), request.ctx, request.query),
  );

  app.get('/cm/cases/updater/template', { schema: { tags } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${UPDATER_TEMPLATE.filename}"`)
      .send(csvText(UPDATER_TEMPLATE.header, UPDATER_TEMPLATE.rows)),
  );
};
