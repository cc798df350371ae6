/**
 * Worker liveness scenarios with in-process workers, run on Postgres
 * (dead-worker.test.ts) and on PGlite (pglite-dead-worker.test.ts). A "dead"
 * worker is one whose database handle is severed (helpers.ts severable):
 * nothing it does reaches the database any more, as after a SIGKILL.
 */
import { expect } from 'vitest';
import type { Db, Queryable } from '@portal/core';
import {
  DEAD_WORKER_ERROR,
  enqueue,
  JobWorker,
  LOST_FETCH_ERROR,
  markRunning,
  type JobStatus,
} from '@portal/jobs';
import { effectsOf, quietLog, runsOf, severable, silentLog, waitForStatus } from './helpers';
import { heldJob, releaseHeld, TEST_JOBS } from './test-jobs';

/** Short liveness timings: beats every 0.5 s, dead after 2 s. */
export const LIVENESS = { heartbeatSeconds: 0.5, deadAfterSeconds: 2 } as const;

const worker = (db: Db, log = quietLog()) =>
  new JobWorker({
    db,
    log,
    jobs: TEST_JOBS,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
    ...LIVENESS,
  });

export async function workerOf(db: Queryable, jobId: string) {
  const { rows } = await db.query<{ worker_id: string | null }>(
    `select worker_id from jobs.job_status where id = $1`,
    [jobId],
  );
  return rows[0]?.worker_id;
}

/** The workers beating now. */
export async function beatingWorkers(db: Queryable) {
  const { rows } = await db.query<{ id: string }>(`select id from jobs.job_workers order by id`);
  return rows.map((r) => r.id);
}

export async function pgbossJob(db: Queryable, jobId: string) {
  const { rows } = await db.query<{ state: string; retry_count: number }>(
    `select state, retry_count from pgboss.job where id = $1`,
    [jobId],
  );
  return rows[0];
}

/** Starts a held job on a worker of its own; resolves once its effect is applied and it holds. */
async function startHeldJob(db: Db, runner: JobWorker, note: string) {
  await runner.start();
  const { id } = await db.transaction((tx) =>
    enqueue(tx, heldJob, { note }, { tenant: 'acme', createdBy: 4 }),
  );
  await waitForStatus(db, 'acme', id, (s) => s.state === 'running' && s.message === 'Effect applied');
  expect(await workerOf(db, id)).toBe(runner.id);
  return id;
}

/**
 * Scale-out: a worker dies mid-job while another one runs; the live one
 * hands the job back within seconds (its time limit is 15 minutes) and runs
 * the retry, which skips the once-step the dead attempt completed.
 */
export async function deadPeerIsTakenOver(db: Db) {
  const cut = severable(db);
  const dead = worker(cut.db, silentLog());
  const id = await startHeldJob(db, dead, 'severed');
  const live = worker(db);
  await live.start();
  try {
    cut.sever();
    const seen: JobStatus[] = [];
    const done = await waitForStatus(db, 'acme', id, (s) => s.state === 'done', { seen });
    expect(done).toMatchObject({ attempts: 2, error: null, result: { note: 'severed' } });
    // Between the attempts the screen said why it was waiting.
    expect(seen.some((s) => s.state === 'queued' && s.error === DEAD_WORKER_ERROR)).toBe(true);
    expect(await workerOf(db, id)).toBe(live.id);
    expect((await runsOf(db, id)).map((r) => r.attempt)).toEqual([1, 2]);
    expect(await effectsOf(db, id)).toEqual(['severed']);
    // pg-boss counted the dead attempt (retry_count) as its own expiry would have.
    expect(await pgbossJob(db, id)).toEqual({ state: 'completed', retry_count: 1 });
    // The dead worker's heartbeat row went with its jobs.
    expect(await beatingWorkers(db)).toEqual([live.id]);
  } finally {
    cut.restore();
    await dead.stop(1).catch(() => undefined);
    await live.stop(1);
  }
  expect(await beatingWorkers(db)).toEqual([]);
}

/** A live worker's job that runs past deadAfterSeconds is left alone by the other workers. */
export async function liveWorkersJobIsKept(db: Db) {
  const owner = worker(db);
  const id = await startHeldJob(db, owner, 'long');
  const other = worker(db);
  await other.start();
  try {
    // Three times deadAfterSeconds: both workers beat and sweep several times meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3 * LIVENESS.deadAfterSeconds * 1000));
    expect(await waitForStatus(db, 'acme', id, () => true)).toMatchObject({
      state: 'running',
      attempts: 1,
      error: null,
    });
    expect(await workerOf(db, id)).toBe(owner.id);
    expect(await pgbossJob(db, id)).toEqual({ state: 'active', retry_count: 0 });
    releaseHeld(id);
    const done = await waitForStatus(db, 'acme', id, (s) => s.state === 'done');
    expect(done).toMatchObject({ attempts: 1, result: { note: 'long' } });
    expect((await runsOf(db, id)).map((r) => r.attempt)).toEqual([1]);
  } finally {
    await owner.stop(1);
    await other.stop(1);
  }
}

/** Enqueues a held job and marks it fetched `minutesAgo`, as pg-boss's first fetch writes it (retry_count 0). */
async function enqueueFetched(db: Db, note: string, minutesAgo: number) {
  const { id } = await db.transaction((tx) =>
    enqueue(tx, heldJob, { note }, { tenant: 'acme', createdBy: 4 }),
  );
  await db.query(
    `update pgboss.job set state = 'active', started_on = now() - make_interval(mins => $2) where id = $1`,
    [id, minutesAgo],
  );
  return id;
}

/**
 * A fetch whose answer never reached a worker (Postgres stopped as pg-boss's fetch committed): the job
 * is `active` in pg-boss and no one runs it. A worker hands it back once it is 30 s old (not after its
 * 15-minute time limit) and runs the retry; a very late answer to the lost fetch is refused.
 */
export async function lostFetchIsRetried(db: Db) {
  const id = await enqueueFetched(db, 'lost fetch', 1);
  const runner = worker(db);
  await runner.start();
  try {
    const seen: JobStatus[] = [];
    const done = await waitForStatus(db, 'acme', id, (s) => s.state === 'done', { seen });
    expect(done).toMatchObject({ attempts: 2, error: null, result: { note: 'lost fetch' } });
    expect(seen.some((s) => s.state === 'queued' && s.error === LOST_FETCH_ERROR)).toBe(true);
    // Only the retry ran; pg-boss counted the lost attempt.
    expect((await runsOf(db, id)).map((r) => r.attempt)).toEqual([2]);
    expect(await effectsOf(db, id)).toEqual(['lost fetch']);
    expect(await pgbossJob(db, id)).toEqual({ state: 'completed', retry_count: 1 });
    // The lost fetch's answer, arriving now, would not start attempt 1.
    const meta = { id, kind: heldJob.name, tenant: 'acme', createdBy: 4 };
    expect(await markRunning(db, meta, 1, 3, runner.id)).toBeUndefined();
    expect(await waitForStatus(db, 'acme', id, () => true)).toMatchObject({ state: 'done', attempts: 2 });
  } finally {
    await runner.stop(1);
  }
}

/**
 * The attempt ran and its status record is final, but pg-boss never heard (the worker died between the two
 * writes): a worker completes the job in pg-boss at its next maintenance, without running it again.
 */
export async function lostOutcomeIsRecorded(db: Db) {
  const id = await enqueueFetched(db, 'lost outcome', 2);
  await db.query(
    `update jobs.job_status set state = 'done', attempts = 1, progress = 100, result = '{"note":"lost outcome"}',
       started_at = now() - interval '2 minutes', finished_at = now() - interval '1 minute' where id = $1`,
    [id],
  );
  const runner = worker(db);
  await runner.start();
  try {
    const deadline = Date.now() + 20_000;
    while ((await pgbossJob(db, id))?.state === 'active' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await pgbossJob(db, id)).toEqual({ state: 'completed', retry_count: 0 });
    const { rows } = await db.query<{ output: unknown }>(`select output from pgboss.job where id = $1`, [id]);
    expect(rows[0]!.output).toEqual({ note: 'lost outcome' });
    expect(await runsOf(db, id)).toEqual([]);
    expect(await waitForStatus(db, 'acme', id, () => true)).toMatchObject({ state: 'done', attempts: 1 });
  } finally {
    await runner.stop(1);
  }
}
