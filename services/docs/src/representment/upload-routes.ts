import type { FastifyPluginAsync } from 'fastify';
import {
  CASE_STATUS,
  ErrorResponse,
  PROCESSOR_SUBMISSION_MESSAGES,
  REPRESENTMENT_MESSAGES as M,
  REUPLOADABLE_STATUSES,
  RepresentmentUploadAnswer,
  RepresentmentUploadBody,
  TransportAnswer,
  TransportBody,
  UPLOADABLE_STATUSES,
  UploadLinkAnswer,
  UploadLinkQuery,
  type InternalContext,
} from '@portal/contracts';
import { conflict, forbidden } from '@portal/core';
import { acceptRepresentment, type UploadRoute } from './accept-representment';
import { enqueueTransport } from './jobs';
import { assertUser } from './representment-routes';
import { issueUploadLink, UPLOAD_REFUSALS, type UploadLinkDeps } from './upload-link';
import { caseStatus, latestVersion, setCaseStatus } from './version-repository';

export type UploadDeps = UploadLinkDeps;

function assertWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (ctx.read_only) throw forbidden('Read-only users cannot upload representments.');
}

/** The representment upload: a refusal once the case is in scope is the case's DOC_VALIDATION_ERROR event. */
const REPRESENTMENT_UPLOAD: UploadRoute = {
  notUploadable: M.notUploadable,
  verb: 'uploaded',
  requireDocument: true,
  reportRefusals: true,
};

/**
 * The representment upload path (spec 2 §2.6, §4, §5, §7; contracts/representment.ts):
 * upload link, the upload itself (acceptRepresentment: every stored file checked, then
 * one transaction), and the explicit transport request.
 */
export function uploadRoutes(deps: UploadDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: UploadLinkQuery }>(
      '/docs/representment/upload-link',
      {
        schema: {
          tags: ['documents'],
          summary: 'An upload form for one representment file of a case',
          querystring: UploadLinkQuery,
          response: { 200: UploadLinkAnswer, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        assertWriter(request.ctx);
        return issueUploadLink(deps, request.ctx, request.query, {
          statuses: REUPLOADABLE_STATUSES,
          notUploadable: M.notUploadable,
          contentType: 'application/pdf',
        });
      },
    );

    app.post<{ Body: RepresentmentUploadBody }>(
      '/docs/representment',
      {
        schema: {
          tags: ['documents'],
          summary: 'Upload a representment: stored files and templates, compiled in order',
          body: RepresentmentUploadBody,
          response: { 200: RepresentmentUploadAnswer, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        const body = request.body;
        const accepted = await acceptRepresentment({ ...deps, log: request.log }, ctx, {
          caseId: body.case_id,
          from: body.is_reupload ? REUPLOADABLE_STATUSES : UPLOADABLE_STATUSES,
          files: body.files,
          templates: body.templates,
          origin: body.origin,
          qcReview: body.qc_review && !body.is_reupload,
          isReupload: body.is_reupload,
          comment: body.comment ?? null,
          route: REPRESENTMENT_UPLOAD,
          acceptedWarnings: body.accepted_warnings ?? null,
          draft: body.save_as_draft ?? false,
        });
        const { caseId, version, jobId, pages } = accepted;
        request.log.info({ case: caseId, version, pages }, 'representment uploaded');
        return {
          message: body.save_as_draft ? PROCESSOR_SUBMISSION_MESSAGES.draftQueued : M.success,
          title: M.successTitle,
          version,
          status_id: CASE_STATUS.DocCompiling,
          job_id: jobId,
        };
      },
    );

    app.post<{ Body: { case_id: number } }>(
      '/docs/representment/transport',
      {
        schema: {
          tags: ['documents'],
          summary: 'Send the compiled representment of a case to the card network',
          body: TransportBody,
          response: { 200: TransportAnswer, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        const c = await deps.cases.caseDetail(ctx, request.body.case_id);
        const job = await deps.db.transaction(async (tx) => {
          const v = await latestVersion(tx, ctx.tenant, c.id);
          if (!v || v.state !== 'compiled') throw conflict(M.transportNotReady(c.status));
          const status = await caseStatus(tx, ctx.tenant, c.id);
          if (status === CASE_STATUS.DocCompiled) {
            await setCaseStatus(tx, {
              tenant: ctx.tenant,
              caseId: c.id,
              from: [CASE_STATUS.DocCompiled],
              to: CASE_STATUS.TransportReady,
              action: 'Representment transport requested',
              userId: ctx.user_id,
              username: ctx.username,
            });
          } else if (status !== CASE_STATUS.TransportReady) {
            throw conflict(M.transportNotReady(c.status));
          }
          return enqueueTransport(tx, ctx.tenant, c.id, ctx.user_id);
        });
        return { message: M.transportQueued, job_id: job.id };
      },
    );
  };
}
