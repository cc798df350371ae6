import type { FastifyPluginAsync } from 'fastify';
import {
  BUILDER_MESSAGES as B,
  BuilderUploadAnswer,
  BuilderUploadBody,
  BuilderUploadLinkQuery,
  bytesToMb,
  CASE_BUILDER_ROLE,
  CASE_MARK_MINUTES,
  CASE_STATUS,
  ErrorResponse,
  REPRESENTMENT_MESSAGES as M,
  UPLOAD_ORIGIN,
  UPLOADABLE_STATUSES,
  UploadLinkAnswer,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, type Db } from '@portal/core';
import { newObjectKey, parseObjectKey, type ObjectStore } from '@portal/storage';
import type { CaseScope } from '../representment/case-scope';
import { checkFile, declaredAs, readAll, sha256 } from '../representment/file-check';
import { enqueueCompile } from '../representment/jobs';
import { assertUser } from '../representment/representment-routes';
import { issueUploadLink } from '../representment/upload-routes';
import { uploadLimits } from '../representment/upload-limits';
import {
  heldByOther,
  insertVersion,
  issuedKeys,
  setCaseStatus,
  templatesFor,
  type NewDocument,
} from '../representment/version-repository';
import type { BuilderClient } from './builder-client';
import { caseSummaryPdf } from './case-summary-pdf';

export interface BuilderUploadDeps {
  db: Db;
  scope: CaseScope;
  store: ObjectStore;
  builder: BuilderClient;
  tenantConfigDir: string;
}

function assertBuilderWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (!ctx.roles.includes(CASE_BUILDER_ROLE)) throw forbidden(B.noRole);
  if (ctx.read_only) throw forbidden(B.readOnly);
}

const fieldError = (id: string, text: string) => badRequest(text, { fields: [{ id, errors: [text] }] });

/**
 * The case builder's documents (spec 2 §2.7 steps 3 and 4, §5 'Case
 * builder', §7 'Documents'): an upload form per JPG or PDF document (issue 29:
 * PDF too, as the representment upload takes), then the
 * submission, which checks every stored file as the representment upload does
 * (same modules), requires a file for every required document type, builds
 * the case summary PDF from the builder's answers and puts it first, then in
 * one transaction stores the version, moves the case to DocCompiling and
 * enqueues the compile job: from there the case moves on exactly as an
 * upload does.
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
          response: {
            200: UploadLinkAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilderWriter(ctx);
        const c = await deps.scope.caseDetail(ctx, request.query.case_id);
        if (!UPLOADABLE_STATUSES.includes(c.status_id)) throw conflict(B.notBuildable(c.status));
        const contentType = request.query.content_type ?? 'image/jpeg';
        return issueUploadLink(deps, ctx, c.id, {
          filename:
            request.query.filename ?? (contentType === 'application/pdf' ? 'document.pdf' : 'document.jpg'),
          contentType,
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
          response: {
            200: BuilderUploadAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilderWriter(ctx);
        const body = request.body;
        const c = await deps.scope.caseDetail(ctx, body.case_id);
        if (!UPLOADABLE_STATUSES.includes(c.status_id)) throw conflict(B.notBuildable(c.status));
        const holder = await heldByOther(deps.db, ctx.tenant, c.id, ctx.user_id, CASE_MARK_MINUTES);
        if (holder) throw conflict(M.heldByOther(holder));
        const limits = uploadLimits(deps.tenantConfigDir, ctx);
        const mb = bytesToMb(limits.maxBytes);

        // The builder's answers and document types, asked with the caller's context.
        const [pages, docTypes] = await Promise.all([
          deps.builder.pages(ctx, c.id),
          deps.builder.docTypes(ctx, c.id),
        ]);
        if (!pages[0]!.last_updated) throw conflict(B.firstPage);
        const types = new Map(docTypes.data.map((t) => [t.id, t]));
        const items = [...body.files, ...body.templates];
        for (const item of items) if (!types.has(item.upload_doc_type_id)) throw badRequest(B.selectDocType);
        const missing = docTypes.data.filter(
          (t) => t.required && !items.some((i) => i.upload_doc_type_id === t.id),
        );
        if (missing.length)
          throw badRequest(B.missingDocType(missing[0]!.name), {
            fields: missing.map((t) => ({ id: `doc_type_${t.id}`, errors: [B.missingDocType(t.name)] })),
          });
        const templateIds = body.templates.map((t) => t.id);
        if (new Set(templateIds).size !== templateIds.length) throw badRequest(B.templateAdded);

        // Keys: well formed, of this tenant, issued for this case, not used by a version yet, once each.
        const keys = body.files.map((f) => f.s3_key);
        if (new Set(keys).size !== keys.length) throw badRequest(M.foreignKey);
        const issued = await issuedKeys(deps.db, ctx.tenant, keys);
        for (const key of keys) {
          const parsed = parseObjectKey(key);
          const link = issued.get(key);
          if (!parsed || parsed.tenant !== ctx.tenant || parsed.area !== 'representments' || !link)
            throw badRequest(M.foreignKey);
          if (link.caseId !== c.id || link.used) throw badRequest(M.foreignKey);
        }
        // The store also answers the type each upload link was asked for (the form had to name it).
        let total = 0;
        const linkTypes = new Map<string, string>();
        for (const key of keys) {
          const info = await deps.store.head(ctx.tenant, key).catch(() => null);
          if (!info) throw badRequest(M.missingFile);
          total += info.size;
          linkTypes.set(key, info.contentType);
        }
        const templates = await templatesFor(deps.db, ctx.tenant, c.merchant_id, templateIds);
        for (const t of body.templates) {
          const found = templates.get(t.id);
          if (!found) throw badRequest(M.unknownTemplate(t.id));
          total += found.size;
        }
        if (total > limits.maxBytes) throw fieldError('files', B.tooLarge(mb));

        const staged: Array<NewDocument & { position: number }> = [];
        for (const f of body.files) {
          const stream = await deps.store.read(ctx.tenant, f.s3_key);
          if (!stream) throw badRequest(M.missingFile);
          const bytes = await readAll(stream);
          // Step 3 takes single JPG or PDF files (issue 29), with the upload's checks (checkFile: type by
          // the bytes, a complete JPEG, a PDF that loads and is not encrypted). A file declared as another
          // type than its bytes, at link time or here, is refused.
          const checked = await checkFile(bytes, mb);
          if (!declaredAs(checked.contentType, [linkTypes.get(f.s3_key)!, f.content_type]))
            throw fieldError('files', B.onlyJpgOrPdf(mb));
          staged.push({
            position: f.order_num + 1,
            orderNum: 0,
            kind: 'file',
            templateId: null,
            s3Key: f.s3_key,
            filename: f.filename,
            contentType: checked.contentType,
            size: checked.size,
            pages: checked.pages,
            sha256: checked.sha256,
          });
        }
        for (const t of body.templates) {
          const found = templates.get(t.id)!;
          const stream = await deps.store.read(ctx.tenant, found.s3_key);
          if (!stream) throw badRequest(M.missingFile);
          const checked = await checkFile(await readAll(stream), mb);
          staged.push({
            position: t.order_num + 1,
            orderNum: 0,
            kind: 'template',
            templateId: t.id,
            s3Key: found.s3_key,
            filename: found.file_name,
            contentType: found.content_type,
            size: found.size,
            pages: checked.pages,
            sha256: checked.sha256,
          });
        }

        // The case summary: generated, stored, then first in the compiled PDF.
        const summary = await caseSummaryPdf(pages, {
          merchant: c.merchant_name,
          submittedBy: ctx.username,
          submittedAt: new Date(),
        });
        const pageCount = staged.reduce((n, d) => n + d.pages, summary.pages);
        if (limits.maxPages > 0 && pageCount > limits.maxPages)
          throw badRequest(M.tooManyPages(limits.maxPages));
        const summaryName = `case-summary-${c.id}.pdf`;
        const summaryKey = newObjectKey(ctx.tenant, 'representments', summaryName);
        await deps.store.put(ctx.tenant, summaryKey, summary.bytes, { contentType: 'application/pdf' });
        staged.push({
          position: 0,
          orderNum: 0,
          kind: 'file',
          templateId: null,
          s3Key: summaryKey,
          filename: summaryName,
          contentType: 'application/pdf',
          size: summary.bytes.length,
          pages: summary.pages,
          sha256: sha256(summary.bytes),
        });
        staged.sort((a, b) => a.position - b.position);
        staged.forEach((d, i) => (d.orderNum = i));

        try {
          const result = await deps.db.transaction(async (tx) => {
            const v = await insertVersion(tx, {
              tenant: ctx.tenant,
              caseId: c.id,
              merchantId: c.merchant_id,
              origin: UPLOAD_ORIGIN,
              qcReview: false,
              isReupload: false,
              comment: body.comment ?? null,
              uploadedBy: ctx.username,
              uploadedById: ctx.user_id,
              documents: staged.map(({ position: _p, ...d }) => d),
            });
            const previous = await setCaseStatus(tx, {
              tenant: ctx.tenant,
              caseId: c.id,
              from: UPLOADABLE_STATUSES,
              to: CASE_STATUS.DocCompiling,
              action: `Representment v${v.version} submitted from the case builder (${staged.length} document(s), ${pageCount} page(s))`,
              userId: ctx.user_id,
              username: ctx.username,
            });
            if (previous === null) throw conflict(B.notBuildable('changing'));
            const job = await enqueueCompile(tx, ctx.tenant, c.id, v.id, ctx.user_id);
            return { version: v.version, job_id: job.id };
          });
          request.log.info(
            { case: c.id, version: result.version, pages: pageCount },
            'builder representment submitted',
          );
          return {
            message: B.submitted,
            version: result.version,
            status_id: CASE_STATUS.DocCompiling,
            job_id: result.job_id,
          };
        } catch (error) {
          // Nothing half-written: the stored summary goes with the refused transaction.
          await deps.store.delete(ctx.tenant, summaryKey).catch(() => undefined);
          throw error;
        }
      },
    );
  };
}
