import type { FastifyPluginAsync } from 'fastify';
import {
  CaseIdParams,
  CaseList,
  CaseListQuery,
  CaseMarkBody,
  CaseMarkResult,
  CaseWriteResult,
  ErrorResponse,
  ErtBody,
  ErtCaseParams,
  ErtList,
  ErtResult,
  QC_QUEUE_STATUS,
  QcActionBody,
  QcCase,
  QcCaseParams,
  QcDnrBody,
  REVIEW_ACTIONS,
  ReviewActionList,
  ReviewCase,
  ReviewPatchBody,
  Offset,
} from '@portal/contracts';
import { Type, type Static } from '@sinclair/typebox';
import { listCases } from '../cases/case-repository';
import { patchMarks } from './case-marks';
import { getReviewCase, patchReview } from './admin-review';
import { addErt, listErts } from './erts';
import { getQcCase, nextQcCase, qcAction, qcDoNotRepresent } from './qc-review';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const ErtListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});

/** QC review, admin review, case marks and ERTs (spec 2 §2.4, §2.5, §4, §7). */
export const reviewRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;

  // Mark / release (the spec's 'case patch', path not shown); the gateway allows all three methods.
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    app.route<{ Body: CaseMarkBody }>({
      method,
      url: '/cm/cases/patch',
      schema: {
        tags: ['review'],
        body: CaseMarkBody,
        response: { 200: CaseMarkResult, ...errors },
        hide: method !== 'PATCH',
      },
      handler: async (request) => patchMarks(db, request.ctx, request.body),
    });
  }

  app.get<{ Querystring: CaseListQuery }>(
    '/cm/cases/qc',
    {
      schema: {
        tags: ['review'],
        querystring: CaseListQuery,
        response: { 200: CaseList, 400: ErrorResponse },
      },
    },
    async (request) => listCases(db, request.ctx, { ...request.query, status_id: String(QC_QUEUE_STATUS) }),
  );

  app.get<{ Params: Static<typeof QcCaseParams> }>(
    '/cm/cases/qc/:id',
    { schema: { tags: ['review'], params: QcCaseParams, response: { 200: QcCase, ...errors } } },
    async (request) =>
      request.params.id === 'next'
        ? nextQcCase(db, request.ctx)
        : getQcCase(db, request.ctx, Number(request.params.id)),
  );

  app.patch<{ Body: QcActionBody }>(
    '/cm/cases/qc',
    { schema: { tags: ['review'], body: QcActionBody, response: { 200: CaseWriteResult, ...errors } } },
    async (request) => qcAction(db, request.ctx, request.body),
  );

  // The spec's 'do-not-represent call' (path not shown): its own path so the gateway can require the tenant flag.
  app.patch<{ Body: QcDnrBody }>(
    '/cm/cases/qc/dnr',
    { schema: { tags: ['review'], body: QcDnrBody, response: { 200: CaseWriteResult, ...errors } } },
    async (request) => qcDoNotRepresent(db, request.ctx, request.body),
  );

  app.get<{ Querystring: CaseListQuery }>(
    '/cm/review',
    {
      schema: {
        tags: ['review'],
        querystring: CaseListQuery,
        response: { 200: CaseList, 400: ErrorResponse },
      },
    },
    // Admin review works the open cases unless the grid asks for another tab.
    async (request) =>
      listCases(db, request.ctx, {
        ...request.query,
        filter_group: request.query.filter_group ?? 'working_cases',
      }),
  );

  app.get(
    '/cm/review/actions',
    { schema: { tags: ['review'], response: { 200: ReviewActionList } } },
    async () => ({ data: REVIEW_ACTIONS.map((a) => ({ ...a })) }),
  );

  app.get<{ Params: Static<typeof CaseIdParams> }>(
    '/cm/review/:id',
    { schema: { tags: ['review'], params: CaseIdParams, response: { 200: ReviewCase, ...errors } } },
    async (request) => getReviewCase(db, request.ctx, request.params.id),
  );

  app.patch<{ Body: ReviewPatchBody }>(
    '/cm/review',
    { schema: { tags: ['review'], body: ReviewPatchBody, response: { 200: CaseWriteResult, ...errors } } },
    async (request) => patchReview(db, request.ctx, request.body),
  );

  app.get<{ Params: Static<typeof ErtCaseParams>; Querystring: Static<typeof ErtListQuery> }>(
    '/ert/case/:caseId/erts',
    {
      schema: {
        tags: ['ert'],
        params: ErtCaseParams,
        querystring: ErtListQuery,
        response: { 200: ErtList, ...errors },
      },
    },
    async (request) =>
      listErts(db, request.ctx, request.params.caseId, request.query.start ?? 0, request.query.limit ?? 25),
  );

  app.post<{ Params: Static<typeof ErtCaseParams>; Body: ErtBody }>(
    '/ert/case/:caseId/erts',
    {
      schema: {
        tags: ['ert'],
        params: ErtCaseParams,
        body: ErtBody,
        response: { 200: ErtResult, ...errors },
      },
    },
    async (request) => addErt(db, request.ctx, request.params.caseId, request.body),
  );
};
