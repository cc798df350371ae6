import type { FastifyPluginAsync } from 'fastify';
import {
  CaseBulkEditBody,
  CaseBulkFlagBody,
  CaseBulkPatchBody,
  CaseDetail,
  CaseEditBody,
  CaseFlagBody,
  CaseFlagParams,
  CaseFlagPatchBody,
  CaseHistoryList,
  CaseHistoryQuery,
  CaseIdParams,
  CaseList,
  CaseListQuery,
  CasePatchBody,
  CaseStatusPatchBody,
  CaseWriteResult,
  ErrorResponse,
} from '@portal/contracts';
import { notFound } from '@portal/core';
import type { Static } from '@sinclair/typebox';
import { resolveScope } from '../scope/scope';
import { findCase, getCase, listCases } from './case-repository';
import { listHistory } from './case-history';
import { bulkEditCases, editCase } from './case-edit';
import { bulkFlag, flagCase, patchFlag } from './case-flags';
import { bulkPatchCases, bulkStatusPatch, patchCase } from './case-patch';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const writeSchema = { response: { 200: CaseWriteResult, ...errors } };

/** Case lists, detail, history and writes (spec 2 §7). Thin: the rules live in the repository and writes modules. */
export const caseRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;

  app.get<{ Querystring: CaseListQuery }>(
    '/cm/cases',
    {
      schema: {
        tags: ['cases'],
        querystring: CaseListQuery,
        response: { 200: CaseList, 400: ErrorResponse },
      },
    },
    async (request) => listCases(db, request.ctx, request.query),
  );

  // GET /cm/cases/reports/cases-status-totals (the list's status totals) is served by reports/report-routes.ts.

  app.get<{ Params: Static<typeof CaseIdParams> }>(
    '/cm/cases/:id',
    { schema: { tags: ['cases'], params: CaseIdParams, response: { 200: CaseDetail, 404: ErrorResponse } } },
    async (request) => {
      const found = await getCase(db, request.ctx, request.params.id);
      if (!found) throw notFound('Case not found.');
      return found;
    },
  );

  app.get<{ Params: Static<typeof CaseIdParams>; Querystring: Static<typeof CaseHistoryQuery> }>(
    '/cm/cases/:id/history',
    {
      schema: {
        tags: ['cases'],
        params: CaseIdParams,
        querystring: CaseHistoryQuery,
        response: { 200: CaseHistoryList, ...errors },
      },
    },
    async (request) => {
      const scope = await resolveScope(db, request.ctx);
      if (!(await findCase(db, scope, request.params.id))) throw notFound('Case not found.');
      const start = request.query.start ?? 0;
      const { data, total } = await listHistory(db, request.params.id, start, request.query.limit);
      return { data, pagination: { total, limit: request.query.limit ?? data.length, start } };
    },
  );

  app.patch<{ Params: Static<typeof CaseIdParams>; Body: CaseEditBody }>(
    '/cm/cases/:id/edit',
    { schema: { tags: ['cases'], params: CaseIdParams, body: CaseEditBody, ...writeSchema } },
    async (request) => editCase(db, request.ctx, request.params.id, request.body),
  );

  app.put<{ Body: CaseBulkEditBody }>(
    '/cm/cases/edit',
    { schema: { tags: ['cases'], body: CaseBulkEditBody, ...writeSchema } },
    async (request) => bulkEditCases(db, request.ctx, request.body),
  );

  app.patch<{ Body: Static<typeof CaseStatusPatchBody> }>(
    '/cm/cases/ui/status',
    { schema: { tags: ['cases'], body: CaseStatusPatchBody, ...writeSchema } },
    async (request) => bulkStatusPatch(db, request.ctx, request.body.cases),
  );

  app.put<{ Body: Static<typeof CaseBulkFlagBody> }>(
    '/cm/cases/flag',
    { schema: { tags: ['cases'], body: CaseBulkFlagBody, ...writeSchema } },
    async (request) => bulkFlag(db, request.ctx, request.body.flags),
  );

  app.patch<{ Params: Static<typeof CaseIdParams>; Body: CasePatchBody }>(
    '/cm/cases/:id',
    { schema: { tags: ['cases'], params: CaseIdParams, body: CasePatchBody, ...writeSchema } },
    async (request) => patchCase(db, request.ctx, request.params.id, request.body),
  );

  // 'PUT cm/cases' and 'PUT cm/cases/' of the spec are the same call.
  for (const path of ['/cm/cases', '/cm/cases/']) {
    app.put<{ Body: CaseBulkPatchBody }>(
      path,
      { schema: { tags: ['cases'], body: CaseBulkPatchBody, ...writeSchema, hide: path.endsWith('/') } },
      async (request) => bulkPatchCases(db, request.ctx, request.body),
    );
  }

  app.post<{ Params: Static<typeof CaseIdParams>; Body: Static<typeof CaseFlagBody> }>(
    '/cm/cases/:id/flag',
    { schema: { tags: ['cases'], params: CaseIdParams, body: CaseFlagBody, ...writeSchema } },
    async (request) => flagCase(db, request.ctx, request.params.id, request.body ?? {}),
  );

  app.patch<{ Params: Static<typeof CaseFlagParams>; Body: Static<typeof CaseFlagPatchBody> }>(
    '/cm/cases/:id/flag/:flagId',
    { schema: { tags: ['cases'], params: CaseFlagParams, body: CaseFlagPatchBody, ...writeSchema } },
    async (request) => patchFlag(db, request.ctx, request.params.id, request.params.flagId, request.body),
  );
};
