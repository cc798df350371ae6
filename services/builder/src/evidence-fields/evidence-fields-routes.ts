import type { FastifyPluginAsync } from 'fastify';
import { BuilderEvidenceAnswers, CaseIdParams, ErrorResponse } from '@portal/contracts';
import { forbidden, type CaseClient, type Db } from '@portal/core';
import { evidenceAnswers } from './evidence-answers';

/**
 * GET /builder/internal/evidence-answers/{id} (issue 32, design §13): a
 * case's builder answers for the docs service's transport job, which maps
 * them to the processor's evidence fields. For the portal's services only
 * (a system context, signed with the internal secret); the gateway never
 * routes an `internal` path. The case is the caller's to name: the job
 * sends the case it transports, within the context's tenant.
 */
export function evidenceFieldsRoutes(deps: { db: Db; cases: CaseClient }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: number } }>(
      '/builder/internal/evidence-answers/:id',
      {
        schema: {
          tags: ['internal'],
          summary: "A case's builder answers by field name, for the processor's evidence fields",
          params: CaseIdParams,
          response: { 200: BuilderEvidenceAnswers, 403: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        if (ctx.kind !== 'system') throw forbidden('This call is for the portal services only.');
        return evidenceAnswers(deps.db, deps.cases, ctx, request.params.id);
      },
    );
  };
}
