import type { FastifyPluginAsync } from 'fastify';
import { DocTypeList, DocTypesQuery, ErrorResponse } from '@portal/contracts';
import type { CaseClient, Db } from '@portal/core';
import { loadDraft } from '../cases/draft-repository';
import { assertBuilder } from '../lib/guard';

/**
 * GET /builder/gen/doctypes (spec 2 §7): the document types of step 3 with
 * their required flag for the case: always, or by the draft's answers
 * (proof of delivery for shippable goods, a service agreement for services).
 * The docs service asks the same call when the representment is submitted.
 */
export function docTypeRoutes(deps: { db: Db; cases: CaseClient }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { case_id?: number; limit?: number } }>(
      '/builder/gen/doctypes',
      {
        schema: {
          tags: ['builder'],
          summary: 'Document types with their required flag',
          querystring: DocTypesQuery,
          response: { 200: DocTypeList, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, false);
        const q = request.query;
        let draft = null;
        if (q.case_id) {
          const c = await deps.cases.caseDetail(ctx, q.case_id);
          draft = await loadDraft(deps.db, ctx.tenant, c.id);
        }
        const { rows } = await deps.db.query<{ id: number; name: string; required_when: string }>(
          `select id, name, required_when from builder.doc_types order by id limit $1`,
          [q.limit ?? 999],
        );
        return {
          data: rows.map((r) => ({
            id: r.id,
            name: r.name,
            required:
              r.required_when === 'always' ||
              (r.required_when === 'shippable' && !!draft?.is_shippable) ||
              (r.required_when === 'service' && !!draft?.is_service),
          })),
        };
      },
    );
  };
}
