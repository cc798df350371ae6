import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  DOCS_MESSAGES,
  ErrorResponse,
  RepresentmentLink,
  RepresentmentParams,
  type InternalContext,
} from '@portal/contracts';
import { forbidden, HttpError, notFound, type Db } from '@portal/core';
import { signFileLink } from '../files/signed-links';
import type { CaseScope } from './case-scope';
import { latestRepresentment } from './representment-repository';

export interface RepresentmentDeps {
  db: Db;
  scope: CaseScope;
  linkSecret: string;
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
        await deps.scope.caseInScope(ctx, caseId);
        const doc = await latestRepresentment(deps.db, ctx.tenant, caseId);
        if (!doc) throw notFound('No representment document was found for this case.');
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
        };
      },
    );
  };
}
