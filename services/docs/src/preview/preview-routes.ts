import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { Static } from '@sinclair/typebox';
import {
  BUILDER_MESSAGES as B,
  BuilderPreviewBody,
  CASE_BUILDER_ROLE,
  CompiledPacket,
  ErrorResponse,
  EVIDENCE_MESSAGES as E,
  PacketPreview,
  PreviewBody,
  PreviewPdfParams,
  REPRESENTMENT_MESSAGES as M,
  RepresentmentParams,
  REUPLOADABLE_STATUSES,
  UPLOADABLE_STATUSES,
  type InternalContext,
} from '@portal/contracts';
import { forbidden, HttpError, type CaseClient } from '@portal/core';
import type { BuilderClient } from '../builder/builder-client';
import { caseSummary } from '../builder/case-summary';
import { assertUser } from '../representment/representment-routes';
import { UPLOAD_REFUSALS } from '../representment/upload-link';
import { compiledPacket } from './compiled-packet';
import { previewPacket, previewPdf, type PreviewDeps } from './packet-preview';

export interface PreviewRouteDeps extends PreviewDeps {
  /** The case, and the lookups the builder's case summary names its select answers by. */
  cases: Pick<CaseClient, 'caseDetail' | 'lookup'>;
  builder: BuilderClient;
}

function assertWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (ctx.read_only) throw forbidden('Read-only users cannot upload representments.');
}

function sendPdf(reply: FastifyReply, body: Readable, filename: string) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

const PDF_ANSWER = { 403: ErrorResponse, 404: ErrorResponse };

/**
 * See the evidence before it goes (issue 34; contracts/evidence-preview.ts):
 * the packet previewed as the compile job will build it, with its checks; the
 * previewed PDF; the case builder's packet; and the compiled packet of a case
 * page by page with provenance, for the QC reviewer.
 */
export function previewRoutes(deps: PreviewRouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Body: PreviewBody }>(
      '/docs/representment/preview',
      {
        schema: {
          tags: ['documents'],
          summary: 'Compile the staged documents as the packet will be, and check it',
          body: PreviewBody,
          response: { 200: PacketPreview, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        assertWriter(request.ctx);
        const { case_id, files, templates } = request.body;
        return previewPacket(deps, request.ctx, {
          caseId: case_id,
          from: REUPLOADABLE_STATUSES,
          notUploadable: M.notUploadable,
          files,
          templates,
        });
      },
    );

    app.post<{ Body: BuilderPreviewBody }>(
      '/docs/builder/preview',
      {
        schema: {
          tags: ['documents'],
          summary: 'Compile the case builder packet (case summary first) and check it',
          body: BuilderPreviewBody,
          response: { 200: PacketPreview, ...UPLOAD_REFUSALS },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        if (!ctx.roles.includes(CASE_BUILDER_ROLE)) throw forbidden(B.noRole);
        if (ctx.read_only) throw forbidden(B.readOnly);
        const body = request.body;
        return previewPacket(deps, ctx, {
          caseId: body.case_id,
          from: UPLOADABLE_STATUSES,
          notUploadable: B.notBuildable,
          files: body.files,
          templates: body.templates,
          fileField: 'files',
          builder: async (c) => {
            const [pages, types] = await Promise.all([
              deps.builder.pages(ctx, c.id),
              deps.builder.docTypes(ctx, c.id),
            ]);
            const items = [...body.files, ...body.templates];
            const missing = types.data.filter(
              (t) => t.required && !items.some((i) => i.upload_doc_type_id === t.id),
            );
            return {
              summary: await caseSummary(deps.cases, ctx, c, pages),
              missingDocTypes: missing.map((t) => t.name),
            };
          },
        });
      },
    );

    app.get<{ Params: Static<typeof PreviewPdfParams> }>(
      '/docs/representment/preview/:caseId/:sha256',
      {
        schema: {
          tags: ['documents'],
          summary: 'The PDF of a packet preview',
          params: PreviewPdfParams,
          response: PDF_ANSWER,
        },
      },
      async (request, reply) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId, sha256 } = request.params;
        await deps.cases.caseDetail(ctx, caseId);
        const body = await previewPdf(deps.store, ctx.tenant, caseId, sha256);
        if (!body) throw new HttpError(404, E.previewGone);
        return sendPdf(reply, body, `preview-${caseId}.pdf`);
      },
    );

    app.get<{ Params: Static<typeof RepresentmentParams> }>(
      '/docs/representment/:caseId/packet',
      {
        schema: {
          tags: ['documents'],
          summary: 'The compiled packet of a case, page by page with the document each page came from',
          params: RepresentmentParams,
          response: { 200: CompiledPacket, ...PDF_ANSWER },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId } = request.params;
        await deps.cases.caseDetail(ctx, caseId);
        const packet = await compiledPacket(deps.db, ctx.tenant, caseId);
        if (!packet) throw new HttpError(404, E.notCompiled);
        const { key: _key, ...answer } = packet;
        return answer;
      },
    );

    app.get<{ Params: Static<typeof RepresentmentParams> }>(
      '/docs/representment/:caseId/packet.pdf',
      {
        schema: {
          tags: ['documents'],
          summary: 'The PDF of the compiled packet of a case',
          params: RepresentmentParams,
          response: PDF_ANSWER,
        },
      },
      async (request, reply) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId } = request.params;
        await deps.cases.caseDetail(ctx, caseId);
        const packet = await compiledPacket(deps.db, ctx.tenant, caseId);
        const body = packet && (await deps.store.read(ctx.tenant, packet.key));
        if (!body) throw new HttpError(404, E.notCompiled);
        return sendPdf(reply, body, `representment-${caseId}.pdf`);
      },
    );
  };
}
