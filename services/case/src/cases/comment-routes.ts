import type { FastifyPluginAsync } from 'fastify';
import {
  CaseCommentBody,
  CaseCommentList,
  CaseCommentQuery,
  CaseCommentWriteResult,
  CaseIdParams,
  ErrorResponse,
} from '@portal/contracts';
import type { Static } from '@sinclair/typebox';
import { addComment, listComments } from './case-comments';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** Case comments (spec 2 §2.3 Add Comment; the calls are described in contracts/case-comments.ts). */
export const commentRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;

  app.get<{ Params: Static<typeof CaseIdParams>; Querystring: CaseCommentQuery }>(
    '/cm/cases/:id/comments',
    {
      schema: {
        tags: ['cases'],
        params: CaseIdParams,
        querystring: CaseCommentQuery,
        response: { 200: CaseCommentList, ...errors },
      },
    },
    async (request) =>
      listComments(db, request.ctx, request.params.id, request.query.start ?? 0, request.query.limit ?? 20),
  );

  app.post<{ Params: Static<typeof CaseIdParams>; Body: CaseCommentBody }>(
    '/cm/cases/:id/comments',
    {
      schema: {
        tags: ['cases'],
        params: CaseIdParams,
        body: CaseCommentBody,
        response: { 200: CaseCommentWriteResult, ...errors },
      },
    },
    async (request) => addComment(db, request.ctx, request.params.id, request.body.comment),
  );
};
