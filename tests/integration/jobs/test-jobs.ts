/**
 * Job kinds of the job engine's tests, shared by the test files and the
 * worker child process (worker-child.ts). Their effects go to
 * public.job_test_effects (a row per applied effect) and public.job_test_runs
 * (a row per attempt), created by createTestTables.
 */
import type { Queryable } from '@portal/core';
import { defineJob, JobError, Type } from '@portal/jobs';

export async function createTestTables(db: Queryable) {
  await db.query(
    `create table if not exists public.job_test_effects (job_id uuid not null, note text not null, at timestamptz not null default now());
     create table if not exists public.job_test_runs (job_id uuid not null, attempt integer not null, pid integer not null, at timestamptz not null default now())`,
  );
}

const recordRun = (db: Queryable, jobId: string, attempt: number) =>
  db.query(`insert into public.job_test_runs (job_id, attempt, pid) values ($1, $2, $3)`, [
    jobId,
    attempt,
    process.pid,
  ]);

/**
 * Applies its effect once (ctx.once), reports progress, then waits for
 * `release` rows when `hold` is set: the crash test kills the worker there.
 * Only the first attempt holds.
 */
export const effectJob = defineJob({
  name: 'test.effect',
  schema: Type.Object({ note: Type.String(), hold: Type.Optional(Type.Boolean()) }),
  retryLimit: 2,
  retryDelaySeconds: 1,
  expireInSeconds: 3,
  handler: async (ctx) => {
    await recordRun(ctx.db, ctx.id, ctx.attempt);
    await ctx.progress(10, 'Starting');
    await ctx.once('effect', (tx) =>
      tx.query(`insert into public.job_test_effects (job_id, note) values ($1, $2)`, [ctx.id, ctx.data.note]),
    );
    await ctx.progress(50, 'Effect applied');
    if (ctx.data.hold && ctx.attempt === 1) await new Promise(() => undefined);
    return { note: ctx.data.note };
  },
});

/** Always fails with a readable message. */
export const failingJob = defineJob({
  name: 'test.failing',
  schema: Type.Object({ reason: Type.String() }),
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryBackoff: true,
  expireInSeconds: 10,
  handler: async (ctx) => {
    await recordRun(ctx.db, ctx.id, ctx.attempt);
    throw new JobError(`Could not reach the bank: ${ctx.data.reason}`);
  },
});

/** Fails permanently, or with an unexpected error (not shown to people as is). */
export const brokenJob = defineJob({
  name: 'test.broken',
  schema: Type.Object({ permanent: Type.Boolean() }),
  retryLimit: 1,
  retryDelaySeconds: 1,
  retryBackoff: false,
  expireInSeconds: 10,
  handler: async (ctx) => {
    await recordRun(ctx.db, ctx.id, ctx.attempt);
    if (ctx.data.permanent) throw new JobError('The case no longer exists.', { permanent: true });
    throw new Error('relation "secret_internal_table" does not exist');
  },
});

/** Reports progress, then waits until a row for it appears in job_test_effects with note 'go'. */
export const steppedJob = defineJob({
  name: 'test.stepped',
  schema: Type.Object({ steps: Type.Integer({ minimum: 1 }) }),
  retryLimit: 0,
  retryDelaySeconds: 1,
  expireInSeconds: 20,
  handler: async (ctx) => {
    await recordRun(ctx.db, ctx.id, ctx.attempt);
    for (let step = 1; step <= ctx.data.steps; step++) {
      await ctx.progress((step * 100) / (ctx.data.steps + 1), `Step ${step} of ${ctx.data.steps}`);
      for (;;) {
        const { rows } = await ctx.db.query(
          `select 1 from public.job_test_effects where job_id = $1 and note = $2`,
          [ctx.id, `go ${step}`],
        );
        if (rows.length) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return { steps: ctx.data.steps };
  },
});

/** Held jobs wait here (in the worker's process) until released: a killed worker's never are. */
const holds = new Map<string, { released: Promise<void>; release: () => void }>();
const holdOf = (jobId: string) => {
  let hold = holds.get(jobId);
  if (!hold) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { released, release };
    holds.set(jobId, hold);
  }
  return hold;
};
/** Lets the first attempt of a held job (running in this process) finish. */
export const releaseHeld = (jobId: string) => holdOf(jobId).release();

/**
 * effectJob with the default time limit (15 minutes), so that within a test only worker liveness
 * (a dead worker's heartbeat) can retry it: the first attempt applies its effect, then waits for
 * releaseHeld without touching the database, as a handler busy elsewhere would.
 */
export const heldJob = defineJob({
  name: 'test.held',
  schema: Type.Object({ note: Type.String() }),
  retryLimit: 2,
  retryDelaySeconds: 1,
  handler: async (ctx) => {
    await recordRun(ctx.db, ctx.id, ctx.attempt);
    await ctx.once('effect', (tx) =>
      tx.query(`insert into public.job_test_effects (job_id, note) values ($1, $2)`, [ctx.id, ctx.data.note]),
    );
    await ctx.progress(50, 'Effect applied');
    if (ctx.attempt === 1) await holdOf(ctx.id).released;
    return { note: ctx.data.note };
  },
});

export const TEST_JOBS = [effectJob, failingJob, brokenJob, steppedJob, heldJob];
