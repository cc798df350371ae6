/**
 * The job engine on Postgres with an in-process worker: transactional
 * enqueue, retries with backoff, readable failures, progress, singleton keys,
 * the status read API and the worker's health route.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enqueue,
  GENERIC_JOB_ERROR,
  getJobStatus,
  JobWorker,
  listJobStatuses,
  migrateJobs,
  type JobStatus,
} from '@portal/jobs';
import { startStack } from '../../../services/runner/src/stack';
import { createWorkerHealthServer } from '../../../services/runner/src/worker';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { effectsOf, quietLog, runsOf, waitForStatus } from './helpers';
import { brokenJob, createTestTables, effectJob, failingJob, steppedJob, TEST_JOBS } from './test-jobs';

let t: TestEnv;
let worker: JobWorker;
const log = quietLog();

beforeAll(async () => {
  t = await createTestEnv();
  await createTestTables(t.db);
  await migrateJobs(t.db, TEST_JOBS, log);
  worker = new JobWorker({
    db: t.db,
    log,
    jobs: TEST_JOBS,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  await worker.start();
});
afterAll(async () => {
  // Time for the jobs still running to end: pg-boss resolves a stop past its timeout while its workers go on,
  // and their next query on the closed pool is an unhandled rejection (seen once in CI).
  await worker?.stop(10);
  await t?.close();
});

const pgbossJobCount = async (id: string) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from pgboss.job where id = $1`, [id])).rows[0]!
    .n;

describe('enqueue', () => {
  it('adds no job when the transaction rolls back, and a committed job runs once', async () => {
    let rolledBack = '';
    await expect(
      t.db.transaction(async (tx) => {
        ({ id: rolledBack } = await enqueue(
          tx,
          effectJob,
          { note: 'never' },
          { tenant: 'acme', createdBy: 1 },
        ));
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(rolledBack).toMatch(/^[0-9a-f-]{36}$/);
    expect(await getJobStatus(t.db, 'acme', rolledBack)).toBeNull();
    expect(await pgbossJobCount(rolledBack)).toBe(0);

    const { id, created } = await t.db.transaction(async (tx) => {
      // The write that causes the job, in the same transaction.
      await tx.query(
        `insert into public.job_test_effects (job_id, note) values (gen_random_uuid(), 'cause')`,
      );
      return enqueue(tx, effectJob, { note: 'committed' }, { tenant: 'acme', createdBy: 7 });
    });
    expect(created).toBe(true);
    const done = await waitForStatus(t.db, 'acme', id, (s) => s.state === 'done');
    expect(done).toMatchObject({
      kind: 'test.effect',
      tenant: 'acme',
      created_by: 7,
      progress: 100,
      message: 'Effect applied',
      error: null,
      result: { note: 'committed' },
      attempts: 1,
      max_attempts: 3,
    });
    expect(done.finished_at).not.toBeNull();
    expect(await effectsOf(t.db, id)).toEqual(['committed']);
    expect(await runsOf(t.db, id)).toHaveLength(1);
  });

  it('is queued until it starts, and a singleton key answers the unfinished job', async () => {
    const later = new Date(Date.now() + 3600_000);
    const first = await t.db.transaction((tx) =>
      enqueue(
        tx,
        effectJob,
        { note: 'later' },
        { tenant: 'acme', createdBy: 1, singletonKey: 'm-7', startAfter: later },
      ),
    );
    const again = await t.db.transaction((tx) =>
      enqueue(
        tx,
        effectJob,
        { note: 'later' },
        { tenant: 'acme', createdBy: 2, singletonKey: 'm-7', startAfter: later },
      ),
    );
    const otherTenant = await t.db.transaction((tx) =>
      enqueue(
        tx,
        effectJob,
        { note: 'later' },
        { tenant: 'northbank', createdBy: 3, singletonKey: 'm-7', startAfter: later },
      ),
    );
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect(otherTenant.created).toBe(true);
    expect(otherTenant.id).not.toBe(first.id);
    expect(await getJobStatus(t.db, 'acme', first.id)).toMatchObject({
      state: 'queued',
      progress: 0,
      message: 'Waiting to start',
      attempts: 0,
      started_at: null,
    });
    expect(await pgbossJobCount(first.id)).toBe(1);
  });

  it('refuses data that does not match the job schema, writing nothing', async () => {
    const before = (await t.db.query<{ n: number }>(`select count(*)::int as n from jobs.job_status`))
      .rows[0]!.n;
    await expect(
      t.db.transaction((tx) =>
        enqueue(tx, effectJob, { note: 5 } as unknown as { note: string }, { tenant: 'acme', createdBy: 1 }),
      ),
    ).rejects.toThrow(/Invalid data for job test.effect: \/note/);
    const after = (await t.db.query<{ n: number }>(`select count(*)::int as n from jobs.job_status`)).rows[0]!
      .n;
    expect(after).toBe(before);
  });
});

describe('failures', () => {
  it('retries a failing job with backoff and ends failed with its message, attempts counted', async () => {
    const { id } = await t.db.transaction((tx) =>
      enqueue(tx, failingJob, { reason: 'timeout' }, { tenant: 'acme', createdBy: 1 }),
    );
    const seen: JobStatus[] = [];
    const failed = await waitForStatus(t.db, 'acme', id, (s) => s.state === 'failed', { seen });
    expect(failed).toMatchObject({
      state: 'failed',
      error: 'Could not reach the bank: timeout',
      attempts: 3,
      max_attempts: 3,
    });
    expect(failed.finished_at).not.toBeNull();
    // Between attempts the job was queued again with the failed attempt's error.
    expect(
      seen.some(
        (s) => s.state === 'queued' && s.attempts >= 1 && s.error === 'Could not reach the bank: timeout',
      ),
    ).toBe(true);
    const runs = await runsOf(t.db, id);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // Backoff: retry n waits retryDelay * 2^(n-1) to twice that (1-2 s, then 2-4 s).
    const gap = (i: number) => runs[i]!.at.getTime() - runs[i - 1]!.at.getTime();
    expect(gap(1)).toBeGreaterThanOrEqual(900);
    expect(gap(2)).toBeGreaterThanOrEqual(1900);
    const { rows } = await t.db.query<{ state: string }>(`select state from pgboss.job where id = $1`, [id]);
    expect(rows[0]?.state).toBe('failed');
  });

  it('does not retry a permanent failure, and hides an unexpected error behind a generic message', async () => {
    const [permanent, unexpected] = await t.db.transaction(async (tx) => [
      await enqueue(tx, brokenJob, { permanent: true }, { tenant: 'acme', createdBy: 1 }),
      await enqueue(tx, brokenJob, { permanent: false }, { tenant: 'acme', createdBy: 1 }),
    ]);
    const p = await waitForStatus(t.db, 'acme', permanent!.id, (s) => s.state === 'failed');
    expect(p).toMatchObject({ error: 'The case no longer exists.', attempts: 1 });
    const u = await waitForStatus(t.db, 'acme', unexpected!.id, (s) => s.state === 'failed');
    expect(u).toMatchObject({ error: GENERIC_JOB_ERROR, attempts: 2 });
    expect(await runsOf(t.db, permanent!.id)).toHaveLength(1);
    expect(await runsOf(t.db, unexpected!.id)).toHaveLength(2);
  });
});

describe('status for screens', () => {
  it('shows progress while the job runs', async () => {
    const { id } = await t.db.transaction((tx) =>
      enqueue(tx, steppedJob, { steps: 2 }, { tenant: 'acme', createdBy: 5 }),
    );
    const go = (step: number) =>
      t.db.query(`insert into public.job_test_effects (job_id, note) values ($1, $2)`, [id, `go ${step}`]);
    const one = await waitForStatus(t.db, 'acme', id, (s) => s.message === 'Step 1 of 2');
    expect(one).toMatchObject({ state: 'running', progress: 33, attempts: 1 });
    expect(one.started_at).not.toBeNull();
    await go(1);
    const two = await waitForStatus(t.db, 'acme', id, (s) => s.message === 'Step 2 of 2');
    expect(two).toMatchObject({ state: 'running', progress: 67 });
    await go(2);
    expect(await waitForStatus(t.db, 'acme', id, (s) => s.state === 'done')).toMatchObject({
      progress: 100,
      result: { steps: 2 },
    });
  });

  it('lists a tenant’s jobs newest first, filtered by kind and user, and never another tenant’s', async () => {
    const ids = await t.db.transaction(async (tx) => [
      (await enqueue(tx, effectJob, { note: 'list a' }, { tenant: 'northbank', createdBy: 41 })).id,
      (await enqueue(tx, brokenJob, { permanent: true }, { tenant: 'northbank', createdBy: 41 })).id,
      (await enqueue(tx, effectJob, { note: 'list c' }, { tenant: 'northbank', createdBy: 42 })).id,
    ]);
    const byUser = await listJobStatuses(t.db, 'northbank', { createdBy: 41 });
    expect(byUser.map((s) => s.id).sort()).toEqual([ids[0], ids[1]].sort());
    const byKind = await listJobStatuses(t.db, 'northbank', { kind: 'test.effect', createdBy: 42 });
    expect(byKind.map((s) => s.id)).toEqual([ids[2]]);
    expect(await listJobStatuses(t.db, 'northbank', { limit: 1 })).toHaveLength(1);
    const acme = await listJobStatuses(t.db, 'acme', { limit: 1000 });
    expect(acme.some((s) => ids.includes(s.id))).toBe(false);
    expect(await getJobStatus(t.db, 'acme', ids[0]!)).toBeNull();
    expect(await getJobStatus(t.db, 'northbank', 'not-a-uuid')).toBeNull();
  });
});

describe('worker health route', () => {
  it('answers 200 while the worker takes jobs and 503 when it does not', async () => {
    const check = async (w: JobWorker) => {
      const server = createWorkerHealthServer(t.db, w);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
        return { status: res.status, body: (await res.json()) as unknown };
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    };
    expect(await check(worker)).toEqual({
      status: 200,
      body: { status: 'ok', service: 'worker', checks: { postgres: 'up', worker: 'up' } },
    });
    const idle = new JobWorker({ db: t.db, log, jobs: [] });
    expect(await check(idle)).toEqual({
      status: 503,
      body: { status: 'down', service: 'worker', checks: { postgres: 'up', worker: 'down' } },
    });
  });
});

describe('embedded stack (npm start)', () => {
  it('runs a job worker in process only when asked to', async () => {
    // The migrate step's scheduled jobs (purge, win-odds refresh, report-key fold) fall due while the suite
    // runs; this worker is stopped at once, and what it had begun went on querying the pool closed after it.
    await t.db.query(`update pgboss.job set start_after = now() + interval '1 day' where state = 'created'`);
    const plain = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1', metricsPort: null });
    expect(plain.worker).toBeUndefined();
    await plain.close();
    const stack = await startStack(t.deps, {
      gatewayPort: 0,
      gatewayHost: '127.0.0.1',
      metricsPort: null,
      worker: { log, pollingIntervalSeconds: 0.5 },
    });
    expect(stack.worker?.state).toBe('started');
    await stack.close();
    expect(stack.worker?.state).toBe('stopped');
  });
});
