import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  ErrorResponse,
  MERCHANT_COLUMNS,
  MID_COLUMNS,
  ONBOARDING_MAX_BYTES,
  ONBOARDING_TEMPLATES,
  OnboardingCreateBody,
  OnboardingCreated,
  OnboardingDiscarded,
  OnboardingFileList,
  OnboardingFilesQuery,
  OnboardingIdParams,
  OnboardingPatch,
  OnboardingRecords,
  OnboardingRecordsPatch,
  OnboardingRecordsPatched,
  OnboardingRecordsQuery,
  OnboardingStatusAnswer,
  OnboardingType,
  OnboardingUploadQuery,
  UploadLinkAnswer,
} from '@portal/contracts';
import { caseObjectStore, csvText, csvUploadLink } from './csv-file';
import { finalizeOnboarding } from './finalize';
import { userServiceLookup } from './username-lookup';
import {
  assertOnboarder,
  createOnboarding,
  discardOnboarding,
  getRecords,
  listOnboardingFiles,
  ONBOARDING_AREA,
  patchRecords,
} from './onboarding';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['onboarding'];

/**
 * Onboarding (spec 3 §2, §7): upload link, CSV intake, history, record editing, finalize, templates;
 * and the discard of an unfinalized upload (issue 29).
 */
export const onboardingRoutes: FastifyPluginAsync = async (app) => {
  const { db, env, log, contextSecret } = app.deps;
  const store = () => caseObjectStore(env, log);
  const lookup = userServiceLookup(env.USER_SERVICE_URL, contextSecret, log);

  app.get<{ Querystring: Static<typeof OnboardingUploadQuery> }>(
    '/cm/onboarding/upload',
    { schema: { tags, querystring: OnboardingUploadQuery, response: { 200: UploadLinkAnswer, ...errors } } },
    async (request) => {
      assertOnboarder(request.ctx);
      return csvUploadLink(
        await store(),
        request.ctx.tenant,
        ONBOARDING_AREA,
        request.query.filename,
        ONBOARDING_MAX_BYTES,
      );
    },
  );

  app.post<{ Body: OnboardingCreateBody }>(
    '/cm/onboarding',
    { schema: { tags, body: OnboardingCreateBody, response: { 200: OnboardingCreated, ...errors } } },
    async (request) => createOnboarding(db, await store(), request.ctx, request.body, lookup),
  );

  app.get<{ Querystring: OnboardingFilesQuery }>(
    '/cm/onboarding/files',
    { schema: { tags, querystring: OnboardingFilesQuery, response: { 200: OnboardingFileList, ...errors } } },
    async (request) => listOnboardingFiles(db, request.ctx, request.query),
  );

  app.get<{ Params: { type: OnboardingType } }>(
    '/cm/onboarding/template/:type',
    { schema: { tags, params: Type.Object({ type: OnboardingType }) } },
    async (request, reply) => {
      const type = request.params.type;
      const columns = type === 'merchant' ? MERCHANT_COLUMNS : MID_COLUMNS;
      const t = ONBOARDING_TEMPLATES[type];
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${t.filename}"`)
        .send(
          csvText(
            columns.map((c) => c.label),
            [t.sample],
          ),
        );
    },
  );

  app.get<{ Params: { id: number }; Querystring: Static<typeof OnboardingRecordsQuery> }>(
    '/cm/onboarding/:id/records',
    {
      schema: {
        tags,
        params: OnboardingIdParams,
        querystring: OnboardingRecordsQuery,
        response: { 200: OnboardingRecords, ...errors },
      },
    },
    async (request) => getRecords(db, request.ctx, request.params.id, request.query),
  );

  app.patch<{ Params: { id: number }; Body: OnboardingRecordsPatch }>(
    '/cm/onboarding/:id/records',
    {
      schema: {
        tags,
        params: OnboardingIdParams,
        body: OnboardingRecordsPatch,
        response: { 200: OnboardingRecordsPatched, ...errors },
      },
    },
    async (request) => patchRecords(db, request.ctx, request.params.id, request.body, lookup),
  );

  app.patch<{ Params: { id: number } }>(
    '/cm/onboarding/:id',
    {
      schema: {
        tags,
        params: OnboardingIdParams,
        body: OnboardingPatch,
        response: { 200: OnboardingStatusAnswer, ...errors },
      },
    },
    async (request) => finalizeOnboarding(db, request.ctx, request.params.id, lookup),
  );

  app.delete<{ Params: { id: number } }>(
    '/cm/onboarding/:id',
    {
      schema: {
        tags,
        summary: 'Discards an upload that was never finalized, with its rows (409 once finalizing)',
        params: OnboardingIdParams,
        response: { 200: OnboardingDiscarded, ...errors },
      },
    },
    async (request) => discardOnboarding(db, store, request.ctx, request.params.id, request.log),
  );
};
