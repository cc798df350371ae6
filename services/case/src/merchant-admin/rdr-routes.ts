import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  MerchantIdParams,
  RDR_SAVED,
  RdrRules,
  RdrRulesBody,
  RuleOperatorList,
  RuleSubjectList,
} from '@portal/contracts';
import { Type } from '@sinclair/typebox';
import { resolveScope } from '../scope/scope';
import { assertMayWrite } from './access';
import { readRules, ruleSubjects, saveRules, type RuleOwner } from './rdr-rules';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** Verifi RDR rules (spec 3 §7 Rules) for a merchant or a MID. */
export const rdrRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/cm/rules/subjects',
    { schema: { tags: ['rules'], response: { 200: RuleSubjectList } } },
    async () => ({
      data: await ruleSubjects(app.deps.db),
    }),
  );
  app.get(
    '/cm/rules/operators',
    { schema: { tags: ['rules'], response: { 200: RuleOperatorList } } },
    async () => ({
      data: (
        await app.deps.db.query<{ id: number; name: string }>(
          `select id, name from cases.rule_operators order by id`,
        )
      ).rows,
    }),
  );

  for (const kind of ['merchants', 'mids'] as const) {
    const owner = (id: number): RuleOwner => ({ kind: kind === 'mids' ? 'mid' : 'merchant', id });
    app.get<{ Params: { id: number } }>(
      `/cm/${kind}/:id/rules`,
      { schema: { tags: ['rules'], params: MerchantIdParams, response: { 200: RdrRules, ...errors } } },
      async (request) =>
        readRules(app.deps.db, await resolveScope(app.deps.db, request.ctx), owner(request.params.id)),
    );
    app.put<{ Params: { id: number }; Body: RdrRulesBody }>(
      `/cm/${kind}/:id/rules/rdr`,
      {
        schema: {
          tags: ['rules'],
          params: MerchantIdParams,
          body: RdrRulesBody,
          response: { 200: Type.Intersect([RdrRules, Type.Object({ message: Type.String() })]), ...errors },
        },
      },
      async (request) => {
        assertMayWrite(request.ctx, 'EDIT_RDR');
        const scope = await resolveScope(app.deps.db, request.ctx);
        const saved = await saveRules(
          app.deps.db,
          scope,
          owner(request.params.id),
          request.body.rules,
          request.ctx.username,
        );
        return { ...saved, message: RDR_SAVED };
      },
    );
  }
};
