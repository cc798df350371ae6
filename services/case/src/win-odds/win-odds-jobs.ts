import type { Queryable } from '@portal/core';
import { defineJob, enqueue, selfScheduledJob, Type, type Enqueued } from '@portal/jobs';
import { latestModel } from './win-odds-repository';
import { refreshScores, trainTenant } from './win-odds-service';

/**
 * The win odds jobs (design §9, issue 33):
 *
 *  - `case.win-odds-train`: one tenant's training on demand (the admin
 *    screen's 'Retrain now'), then every open case scored;
 *  - `case.win-odds-refresh`: every 15 minutes for every tenant, the open
 *    cases changed since they were scored get scored again, and a tenant
 *    whose model is a day old (or missing) is trained: the nightly training.
 *    Self-scheduled (selfScheduledJob).
 *
 * Both are idempotent in effect: a repeated attempt stores an equal model
 * again and scores the same cases the same way.
 */
export const REFRESH_INTERVAL_SECONDS = 900;
const MODEL_MAX_AGE_MS = 24 * 3600 * 1000;
const SYSTEM_TENANT = 'system';

export const winOddsTrainJob = defineJob({
  name: 'case.win-odds-train',
  schema: Type.Object({}),
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 1800,
  handler: async (ctx) => {
    const outcome = await trainTenant(ctx.db, ctx.tenant, {
      configDir: ctx.env?.TENANT_CONFIG_DIR,
      jobId: ctx.id,
      progress: (pct, msg) => ctx.progress(pct, msg),
    });
    await ctx.progress(
      100,
      `Trained: the portal shows the ${outcome.source === 'model' ? 'model' : 'historical win rate'}; ` +
        `${outcome.scored} open case(s) scored`,
    );
    return outcome;
  },
});

export function enqueueTraining(tx: Queryable, tenant: string, userId: number | null): Promise<Enqueued> {
  return enqueue(tx, winOddsTrainJob, {}, { tenant, createdBy: userId, singletonKey: 'win-odds-train' });
}

export const winOddsRefresh = selfScheduledJob({
  name: 'case.win-odds-refresh',
  intervalSeconds: REFRESH_INTERVAL_SECONDS,
  tenant: SYSTEM_TENANT,
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 1800,
  run: async (ctx) => {
    const { rows } = await ctx.db.query<{ id: string }>(`select id from cases.tenants order by id`);
    const done = { trained: 0, scored: 0 };
    for (const { id: tenant } of rows) {
      if (ctx.signal.aborted) break;
      const current = await latestModel(ctx.db, tenant);
      if (!current || Date.now() - Date.parse(current.trained_at) > MODEL_MAX_AGE_MS) {
        const outcome = await trainTenant(ctx.db, tenant, { configDir: ctx.env?.TENANT_CONFIG_DIR });
        done.trained += 1;
        done.scored += outcome.scored;
      } else done.scored += await refreshScores(ctx.db, tenant, ctx.env?.TENANT_CONFIG_DIR);
    }
    await ctx.progress(100, `${done.trained} tenant model(s) trained, ${done.scored} open case(s) scored`);
    return done;
  },
});

export const winOddsRefreshJob = winOddsRefresh.job;

/** Listed in the runner's JOBS. */
export const WIN_ODDS_JOBS = [winOddsTrainJob, winOddsRefreshJob];
