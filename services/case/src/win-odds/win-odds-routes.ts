import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  isProviderStaff,
  WIN_ODDS_MESSAGES as M,
  WinOddsStatus,
  WinOddsTrainAnswer,
  type InternalContext,
} from '@portal/contracts';
import { forbidden } from '@portal/core';
import { listJobStatuses } from '@portal/jobs';
import { fightCosts } from './costs';
import { enqueueTraining, winOddsTrainJob } from './win-odds-jobs';
import { countScored, latestModel } from './win-odds-repository';

/**
 * The admin screen's calls (issue 33): the tenant's model with its holdout
 * evaluation, and 'Retrain now'. Provider staff only (the gateway's policy
 * says so too); the scores themselves reach everyone through the case rows,
 * scoped like the cases.
 */
function assertStaff(ctx: InternalContext, write: boolean) {
  if (!isProviderStaff(ctx.roles)) throw forbidden(M.notAllowed);
  if (write && ctx.read_only) throw forbidden(M.readOnly);
}

export const winOddsRoutes: FastifyPluginAsync = async (app) => {
  const { db, env } = app.deps;
  const errors = { 403: ErrorResponse };

  app.get(
    '/cm/win-odds',
    {
      schema: {
        tags: ['win-odds'],
        summary: "The tenant's win odds model, its holdout evaluation and the latest training job",
        response: { 200: WinOddsStatus, ...errors },
      },
    },
    async (request) => {
      assertStaff(request.ctx, false);
      const tenant = request.ctx.tenant;
      const [current, jobs, scored] = await Promise.all([
        latestModel(db, tenant),
        listJobStatuses(db, tenant, { kind: winOddsTrainJob.name, limit: 1 }),
        countScored(db, tenant),
      ]);
      const costs = fightCosts(env.TENANT_CONFIG_DIR, tenant);
      const job = jobs[0];
      return {
        model: current && {
          id: current.id,
          trained_at: current.trained_at,
          source: current.source,
          n_cases: current.n_cases,
          lambda: current.model?.lambda ?? 0,
          features: current.model?.vocabulary.length ?? 0,
          evaluation: current.evaluation,
        },
        job: job
          ? {
              id: job.id,
              state: job.state,
              progress: job.progress,
              message: job.message,
              error: job.error,
              created_at: job.created_at,
            }
          : null,
        open_scored: scored,
        costs: { handling_cost: costs.handlingCost, fees_from: costs.from },
      };
    },
  );

  app.post(
    '/cm/win-odds/train',
    {
      schema: {
        tags: ['win-odds'],
        summary: "Train the tenant's win odds model now (a job), then score the open cases",
        response: { 202: WinOddsTrainAnswer, ...errors },
      },
    },
    async (request, reply) => {
      assertStaff(request.ctx, true);
      const queued = await db.transaction((tx) =>
        enqueueTraining(tx, request.ctx.tenant, request.ctx.user_id),
      );
      return reply.code(202).send({ job_id: queued.id, created: queued.created });
    },
  );
};
