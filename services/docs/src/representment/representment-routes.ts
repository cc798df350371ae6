import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  DOC_LINK_TTL_SECONDS,
  DOCS_MESSAGES,
  ErrorResponse,
  RepresentmentLink,
  RepresentmentParams,
  type InternalContext,
} from '@portal/contracts';
import { forbidden, HttpError, notFound, type CaseClient, type Db } from '@portal/core';
import { signFileLink } from '../files/signed-links';
import { latestRepresentment } from './representment-repository';
import { versionsOf } from './version-repository';
import type { ObjectStore } from '@portal/storage';

export interface RepresentmentDeps {
  db: Db;
  cases: Pick<CaseClient, 'caseDetail'>;
  linkSecret: string;
  /** The object store holding uploaded versions' compiled PDFs. */
  objects: ObjectStore;
}

/** Reads of case documents need a signed-in user (not the public or system context). */
export function assertUser(ctx: InternalContext) {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw forbidden();
}

/**
 * GET /docs/representment/{caseId} (spec 2 §7): the case's newest
 * representment as a short-lived signed link plus its case comments. 404 when
 * the case is out of scope or has no representment, 410 with the spec's text
 * when the document has been archived.
 */
export function representmentRoutes(deps: RepresentmentDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: Static<typeof RepresentmentParams> }>(
      '/docs/representment/:caseId',
      {
        schema: {
          tags: ['documents'],
          params: RepresentmentParams,
          response: { 200: RepresentmentLink, 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId } = request.params;
        await deps.cases.caseDetail(ctx, caseId);
        // Uploaded versions (newest first) are newer than any seeded document: the newest one is the case's.
        const versions = await versionsOf(deps.db, ctx.tenant, caseId);
        const newest = versions[0];
        if (newest) {
          const key = await compiledKeyOf(deps.db, ctx.tenant, caseId, newest.version);
          const filename = `representment-${caseId}.pdf`;
          const ttl = DOC_LINK_TTL_SECONDS;
          return {
            link:
              newest.compiled && key
                ? await deps.objects.downloadLink(ctx.tenant, key, {
                    filename,
                    contentType: 'application/pdf',
                    expiresInSeconds: ttl,
                  })
                : null,
            case_comments: newest.comment,
            filename,
            content_type: 'application/pdf',
            size: newest.compiled?.size ?? newest.documents.reduce((n, d) => n + d.size, 0),
            created_by: newest.uploaded_by,
            date_created: newest.uploaded_at,
            expires_at: new Date(Date.now() + ttl * 1000).toISOString(),
            documents: newest.documents,
            compiled: newest.compiled,
            version: newest.version,
            versions,
          };
        }
        const doc = await latestRepresentment(deps.db, ctx.tenant, caseId);
        if (!doc) throw notFound(DOCS_MESSAGES.noDocument);
        if (doc.is_archived) throw new HttpError(410, DOCS_MESSAGES.archived);
        const signed = signFileLink(deps.linkSecret, ctx.tenant, doc.file_key);
        return {
          link: signed.link,
          case_comments: doc.case_comments,
          filename: doc.filename,
          content_type: doc.content_type,
          size: doc.size,
          created_by: doc.created_by,
          date_created: doc.date_created,
          expires_at: signed.expiresAt.toISOString(),
          // A seeded (pre-upload) document: one PDF, no version history.
          documents: [],
          compiled: null,
          version: null,
          versions: [],
        };
      },
    );
  };
}

async function compiledKeyOf(
  db: Db,
  tenant: string,
  caseId: number,
  version: number,
): Promise<string | null> {
  const { rows } = await db.query<{ compiled_key: string | null }>(
    `select compiled_key from docs.representment_versions where tenant_id = $1 and case_id = $2 and version = $3`,
    [tenant, caseId, version],
  );
  return rows[0]?.compiled_key ?? null;
}
