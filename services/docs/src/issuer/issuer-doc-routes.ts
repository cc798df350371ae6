import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { ErrorResponse, IssuerDocLink, IssuerDocParams } from '@portal/contracts';
import { notFound, type Db } from '@portal/core';
import type { ObjectStore } from '@portal/storage';
import { assertUser } from '../representment/representment-routes';
import type { CaseLookups } from '../templates/case-lookups';

interface IssuerDocDeps {
  db: Db;
  store: ObjectStore;
  lookups: CaseLookups;
}

const NOT_FOUND = 'The issuer document was not found.';

/**
 * GET /docs/issuer-doc/{caseId}/{docId} (spec 2 §7): a short-lived download
 * link to an issuer document of a case. The case service says which documents
 * the case has (its issuer_docs, only for merchants with feature 1, and only
 * when the case is in the caller's scope); the file is ours under the same id.
 */
export function issuerDocRoutes(deps: IssuerDocDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: Static<typeof IssuerDocParams> }>(
      '/docs/issuer-doc/:caseId/:docId',
      {
        schema: {
          tags: ['documents'],
          params: IssuerDocParams,
          response: { 200: IssuerDocLink, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { caseId, docId } = request.params;
        const listed = await deps.lookups.caseIssuerDocs(ctx, caseId);
        if (!listed.some((d) => d.id === docId)) throw notFound(NOT_FOUND);
        const { rows } = await deps.db.query<{ file_key: string; filename: string; content_type: string }>(
          `select file_key, filename, content_type from docs.issuer_docs where tenant_id = $1 and case_id = $2 and id = $3`,
          [ctx.tenant, caseId, docId],
        );
        const doc = rows[0];
        if (!doc || !(await deps.store.head(ctx.tenant, doc.file_key))) throw notFound(NOT_FOUND);
        const uri = await deps.store.downloadLink(ctx.tenant, doc.file_key, {
          filename: doc.filename,
          contentType: doc.content_type,
        });
        return { uri, filename: doc.filename };
      },
    );
  };
}
