import type { FastifyPluginAsync } from 'fastify';
import {
  BUILDER_MESSAGES as B,
  BuilderUploadAnswer,
  BuilderUploadBody,
  BuilderUploadLinkQuery,
  CASE_BUILDER_ROLE,
  CASE_STATUS,
  PROCESSOR_SUBMISSION_MESSAGES,
  UPLOAD_ORIGIN,
  UPLOADABLE_STATUSES,
  UploadLinkAnswer,
  type InternalContext,
} from '@portal/contracts';
import { forbidden, type CaseClient } from '@portal/core';
import { acceptRepresentment } from '../representment/accept-representment';
import { assertUser } from '../representment/representment-routes';
import { issueUploadLink, UPLOAD_REFUSALS, type UploadLinkDeps } from '../representment/upload-link';
import type { BuilderClient } from './builder-client';
import { builderSubmission } from './builder-submission';

export interface BuilderUploadDeps extends UploadLinkDeps {
  /** The case, and the lookups the case summary names its select answers by. */
  cases: Pick<CaseClient, 'caseDetail' | 'lookup'>;
  builder: BuilderClient;
}

function assertBuilderWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (!ctx.roles.includes(CASE_BUILDER_ROLE)) throw forbidden(B.noRole);
  if (ctx.read_only) throw forbidden(B.readOnly);
}

/**
 * The case builder's documents (spec 2 §2.7 steps 3 and 4, §5 'Case
 * builder', §7 'Documents'): an upload form per JPG or PDF document (issue 29:
 * PDF too, as the representment upload takes), then the submission, which is
 * the representment upload (acceptRepresentment: every stored file checked
 * the same way, one transaction that stores the version, moves the case to
 * DocCompiling and enqueues the compile job) with the builder's own steps
 * (builderSubmission: a file for every required document type, and the case
 * summary PDF first): from there the case moves on exactly as an upload does.
 */
export function builderUploadRoutes(deps: BuilderUploadDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{
      Querystring: { case_id: number; filename?: string; content_type?: 'application/pdf' | 'image/jpeg' };
    }>(
      '/docs/builder/upload-link',
      {
        schema: {
          tags: ['documents'],
          summary: 'An upload form for one case builder document (JPG or PDF)',
          querystring: BuilderUploadLinkQuery,
          response: { 200: UploadLinkAnswer, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        assertBuilderWriter(request.ctx);
        return issueUploadLink(deps, request.ctx, request.query, {
          statuses: UPLOADABLE_STATUSES,
          notUploadable: B.notBuildable,
          contentType: 'image/jpeg',
        });
      },
    );

    app.post<{ Body: BuilderUploadBody }>(
      '/docs/builder/upload',
      {
        schema: {
          tags: ['documents'],
          summary:
            'Submits the case builder representment: documents plus the case summary, compiled in order',
          body: BuilderUploadBody,
          response: { 200: BuilderUploadAnswer, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilderWriter(ctx);
        const body = request.body;
        const accepted = await acceptRepresentment({ ...deps, log: request.log }, ctx, {
          caseId: body.case_id,
          from: UPLOADABLE_STATUSES,
          files: body.files,
          templates: body.templates,
          origin: UPLOAD_ORIGIN,
          qcReview: false,
          isReupload: false,
          comment: body.comment ?? null,
          acceptedWarnings: body.accepted_warnings ?? null,
          route: builderSubmission(deps.builder, deps.cases, ctx, body),
          draft: body.save_as_draft ?? false,
        });
        const { caseId, version, jobId, pages } = accepted;
        request.log.info({ case: caseId, version, pages }, 'builder representment submitted');
        const message = body.save_as_draft ? PROCESSOR_SUBMISSION_MESSAGES.draftQueued : B.submitted;
        return { message, version, status_id: CASE_STATUS.DocCompiling, job_id: jobId };
      },
    );
  };
}
