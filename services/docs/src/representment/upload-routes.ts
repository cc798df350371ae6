import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  bytesToMb,
  CASE_MARK_MINUTES,
  CASE_STATUS,
  ErrorResponse,
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
import { badRequest, conflict, forbidden, HttpError, type Db } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { MAX_UPLOAD_BYTES, parseObjectKey, UPLOAD_LINK_TTL_SECONDS, type ObjectStore } from '@portal/storage';
import type { CaseScope } from './case-scope';
import { checkFile, declaredAs, readAll } from './file-check';
import { enqueueCompile, enqueueTransport } from './jobs';
import { assertUser } from './representment-routes';
import { uploadLimits } from './upload-limits';
import {
  caseStatus,
  heldByOther,
  insertVersion,
  issuedKeys,
  latestVersion,
  recordUploadLink,
  setCaseStatus,
  templatesFor,
  type NewDocument,
} from './version-repository';

/** Emits DOC_VALIDATION_ERROR for a refused upload of a case (its merchant read from cases_api.cases). */
async function docValidationError(db: Db, ctx: InternalContext, caseId: number, message: string) {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ merchant_id: string }>(
      'select merchant_id from cases_api.cases where tenant_id = $1 and id = $2',
      [ctx.tenant, caseId],
    );
    if (!rows[0]) return;
    const data = { case_id: caseId, stage: 'upload', message };
    await emitEvent(
      tx,
      ctx.tenant,
      { type: 'DOC_VALIDATION_ERROR', merchant_id: Number(rows[0].merchant_id), data },
      ctx.user_id,
    );
  });
}

/**
 * The case of an upload request once the schema and the caller's scope have
 * passed: only then is a refusal a DOC_VALIDATION_ERROR of that case. A 400
 * answered before (the input guard's NUL check runs ahead of the schema)
 * leaves the body unchecked, and its case_id (say -9223372036854775809) must
 * not reach SQL.
 */
const scopedCase = new WeakMap<FastifyRequest, number>();

export interface UploadDeps {
  db: Db;
  scope: CaseScope;
  store: ObjectStore;
  tenantConfigDir: string;
}

/**
 * An upload form for one file of a case's representment, within the user's size limit, recorded so
 * the upload call accepts only keys issued for that case (and the purge job can clear them).
 */
export async function issueUploadLink(
  deps: Pick<UploadDeps, 'db' | 'store' | 'tenantConfigDir'>,
  ctx: InternalContext,
  caseId: number,
  file: { filename: string; contentType: string },
) {
  const limits = uploadLimits(deps.tenantConfigDir, ctx);
  const ttl = UPLOAD_LINK_TTL_SECONDS;
  const link = await deps.store.createUploadLink({
    tenant: ctx.tenant,
    area: 'representments',
    filename: file.filename,
    contentType: file.contentType,
    maxBytes: Math.min(limits.maxBytes, MAX_UPLOAD_BYTES),
    expiresInSeconds: ttl,
  });
  await recordUploadLink(deps.db, {
    tenant: ctx.tenant,
    key: link.fields.key!,
    caseId,
    userId: ctx.user_id,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  return link;
}

function assertWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (ctx.read_only) throw forbidden('Read-only users cannot upload representments.');
}

/**
 * The representment upload path (spec 2 §2.6, §4, §5, §7; contracts/representment.ts):
 * upload link, the upload itself (every stored file checked here), and the
 * explicit transport request. A refused upload changes nothing: every check
 * runs before the one transaction that stores the version, moves the case to
 * DocCompiling and enqueues the compile job.
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
        assertWriter(ctx);
        const q = request.query;
        const c = await deps.scope.caseDetail(ctx, q.case_id);
        if (!REUPLOADABLE_STATUSES.includes(c.status_id)) throw conflict(M.notUploadable(c.status));
        return issueUploadLink(deps, ctx, c.id, {
          filename: q.filename ?? (q.content_type === 'image/jpeg' ? 'document.jpg' : 'document.pdf'),
          contentType: q.content_type ?? 'application/pdf',
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
          response: {
            200: RepresentmentUploadAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
        // A refused document set (a 400 after the case scope check) is a DOC_VALIDATION_ERROR event.
        onError: (request, _reply, error, done) => {
          const caseId = scopedCase.get(request);
          if (caseId === undefined || !(error instanceof HttpError) || error.statusCode !== 400)
            return done();
          docValidationError(deps.db, request.ctx, caseId, error.message).then(done, (err: unknown) => {
            request.log.error({ err }, 'DOC_VALIDATION_ERROR event not emitted');
            done();
          });
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        const body = request.body;
        const c = await deps.scope.caseDetail(ctx, body.case_id);
        scopedCase.set(request, c.id);
        const allowed = body.is_reupload ? REUPLOADABLE_STATUSES : UPLOADABLE_STATUSES;
        if (!allowed.includes(c.status_id)) throw conflict(M.notUploadable(c.status));
        const holder = await heldByOther(deps.db, ctx.tenant, c.id, ctx.user_id, CASE_MARK_MINUTES);
        if (holder) throw conflict(M.heldByOther(holder));
        if (body.files.length + body.templates.length === 0) throw badRequest(M.noFile);
        const limits = uploadLimits(deps.tenantConfigDir, ctx);
        const mb = bytesToMb(limits.maxBytes);

        // Keys: well formed, of this tenant, issued for this case, not used by a version yet, once each.
        const keys = body.files.map((f) => f.s3_key);
        if (new Set(keys).size !== keys.length) throw badRequest(M.foreignKey);
        const issued = await issuedKeys(deps.db, ctx.tenant, keys);
        for (const key of keys) {
          const parsed = parseObjectKey(key);
          const link = issued.get(key);
          if (
            !parsed ||
            parsed.tenant !== ctx.tenant ||
            parsed.area !== 'representments' ||
            !link ||
            link.caseId !== c.id ||
            link.used
          )
            throw badRequest(M.foreignKey);
          if (link.stale) throw badRequest(M.linkExpired);
        }
        // Sizes from the store before any byte is read: a missing object or an oversize set stops here.
        // The store also answers the type the upload link was asked for (the form had to name it).
        let total = 0;
        const linkTypes = new Map<string, string>();
        for (const key of keys) {
          const info = await deps.store.head(ctx.tenant, key).catch(() => null);
          if (!info) throw badRequest(M.missingFile);
          total += info.size;
          linkTypes.set(key, info.contentType);
        }
        const templates = await templatesFor(
          deps.db,
          ctx.tenant,
          c.merchant_id,
          body.templates.map((t) => t.id),
        );
        for (const t of body.templates) {
          const found = templates.get(t.id);
          if (!found) throw badRequest(M.unknownTemplate(t.id));
          total += found.size;
        }
        if (total > limits.maxBytes) throw badRequest(M.tooLarge(mb));

        // Every file by its bytes: type, JPEG end marker, PDF loads and is not encrypted; pages and sha256.
        // The type declared for it, at link time and here, must be the type of its bytes.
        const staged: Array<NewDocument & { position: number }> = [];
        for (const [i, f] of body.files.entries()) {
          const stream = await deps.store.read(ctx.tenant, f.s3_key);
          if (!stream) throw badRequest(M.missingFile);
          const bytes = await readAll(stream);
          const checked = await checkFile(bytes, mb);
          if (!declaredAs(checked.contentType, [linkTypes.get(f.s3_key)!, f.content_type]))
            throw badRequest(M.wrongType(mb));
          staged.push({
            position: f.order_num ?? i,
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
          staged.push({
            position: t.order_num,
            orderNum: 0,
            kind: 'template',
            templateId: t.id,
            s3Key: found.s3_key,
            filename: found.file_name,
            contentType: found.content_type,
            size: found.size,
            pages: found.pages || 1,
            sha256: '',
          });
        }
        // Templates are checked when they enter the library; their hash is taken here from the stored bytes.
        for (const d of staged.filter((s) => s.kind === 'template')) {
          const stream = await deps.store.read(ctx.tenant, d.s3Key);
          if (!stream) throw badRequest(M.missingFile);
          const checked = await checkFile(await readAll(stream), mb);
          d.sha256 = checked.sha256;
          d.pages = checked.pages;
        }
        const pages = staged.reduce((n, d) => n + d.pages, 0);
        if (limits.maxPages > 0 && pages > limits.maxPages) throw badRequest(M.tooManyPages(limits.maxPages));
        staged.sort((a, b) => a.position - b.position);
        staged.forEach((d, i) => (d.orderNum = i));

        const result = await deps.db.transaction(async (tx) => {
          const v = await insertVersion(tx, {
            tenant: ctx.tenant,
            caseId: c.id,
            merchantId: c.merchant_id,
            origin: body.origin,
            qcReview: body.qc_review && !body.is_reupload,
            isReupload: body.is_reupload,
            comment: body.comment ?? null,
            uploadedBy: ctx.username,
            uploadedById: ctx.user_id,
            documents: staged.map(({ position: _p, ...d }) => d),
          });
          const previous = await setCaseStatus(tx, {
            tenant: ctx.tenant,
            caseId: c.id,
            from: allowed,
            to: CASE_STATUS.DocCompiling,
            action: `Representment v${v.version} uploaded (${staged.length} document(s), ${pages} page(s))`,
            userId: ctx.user_id,
            username: ctx.username,
          });
          if (previous === null) throw conflict(M.notUploadable('changing'));
          const job = await enqueueCompile(tx, ctx.tenant, c.id, v.id, ctx.user_id);
          return { version: v.version, job_id: job.id };
        });
        request.log.info({ case: c.id, version: result.version, pages }, 'representment uploaded');
        return {
          message: M.success,
          title: M.successTitle,
          version: result.version,
          status_id: CASE_STATUS.DocCompiling,
          job_id: result.job_id,
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
        const c = await deps.scope.caseDetail(ctx, request.body.case_id);
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
