import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  ErrorResponse,
  ProcessorSubmissionView,
  ProcessorSubmitAnswer,
  RepresentmentParams,
} from '@portal/contracts';
import { forbidden, type CaseClient, type Db } from '@portal/core';
import { assertUser } from './representment-routes';
import { submitStagedDraft } from './stripe-draft';
import { connectorOfCase } from './stripe-transport';
import { attemptsOf, stagedDraftVersion, submissionView } from './stripe-submissions';
import { caseStatus } from './version-repository';

/**
 * The case's 'Stripe submission' panel (issue 32):
 *
 *   GET  /docs/representment/{caseId}/processor-submission  the connection, the attempts (fields sent by
 *        name, Stripe's file id, Stripe's error in a merchant's words with its code); `connected: false`
 *        for a case no connection owns
 *   POST /docs/representment/{caseId}/processor-submit      submits the draft staged at Stripe
 *
 * The case service answers whether the case is in the caller's scope.
 */
export function stripeSubmissionRoutes(deps: {
  db: Db;
  cases: Pick<CaseClient, 'caseDetail'>;
}): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: Static<typeof RepresentmentParams> }>(
      '/docs/representment/:caseId/processor-submission',
      {
        schema: {
          tags: ['documents'],
          summary: "The case's submission of evidence to its processor (Stripe): state, fields sent, errors",
          params: RepresentmentParams,
          response: { 200: ProcessorSubmissionView, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId } = request.params;
        await deps.cases.caseDetail(ctx, caseId);
        const owner = await connectorOfCase(deps.db, ctx.tenant, caseId);
        if (!owner) return submissionView(null, [], null, false);
        const [attempts, status, staged] = await Promise.all([
          attemptsOf(deps.db, ctx.tenant, caseId),
          caseStatus(deps.db, ctx.tenant, caseId),
          stagedDraftVersion(deps.db, ctx.tenant, caseId),
        ]);
        return submissionView(owner, attempts, status, staged !== null);
      },
    );

    app.post<{ Params: Static<typeof RepresentmentParams> }>(
      '/docs/representment/:caseId/processor-submit',
      {
        schema: {
          tags: ['documents'],
          summary: 'Submits the evidence staged as a draft at the processor (Stripe)',
          params: RepresentmentParams,
          response: {
            200: ProcessorSubmitAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        if (ctx.read_only) throw forbidden('Read-only users cannot submit representments.');
        await deps.cases.caseDetail(ctx, request.params.caseId);
        return submitStagedDraft(deps.db, ctx, request.params.caseId);
      },
    );
  };
}
