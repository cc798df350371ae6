/**
 * The job engine on the embedded PGlite (`npm start` without DATABASE_URL):
 * pg-boss runs through the executeSql adapter on the same in-process
 * database as the services, including its install script, queue partitions,
 * SKIP LOCKED fetches, retries with backoff and expiry maintenance.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite, type Db } from '@portal/core';
import { enqueue, getJobStatus, JobWorker, listJobStatuses, migrateJobs } from '@portal/jobs';
import { effectsOf, quietLog, runsOf, waitForStatus } from './helpers';
import { createTestTables, effectJob, failingJob, steppedJob, TEST_JOBS } from './test-jobs';

let db: Db;
let worker: JobWorker;
const log = quietLog();

beforeAll(async () => {
  db = await openPglite(join(mkdtempSync(join(tmpdir(), 'jobs-pglite-')), 'db'));
  await migrateJobs(db, TEST_JOBS, log);
  // A second run of the migrate step changes nothing (npm start runs it at every start).
  await migrateJobs(db, TEST_JOBS, log);
  await createTestTables(db);
  worker = new JobWorker({
    db,
    log,
    jobs: TEST_JOBS,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(1);
  await db?.close();
});

it('adds no job when the transaction rolls back, and runs a committed one once', async () => {
  let rolledBack = '';
  await expect(
    db.transaction(async (tx) => {
      ({ id: rolledBack } = await enqueue(
        tx,
        effectJob,
        { note: 'never' },
        { tenant: 'acme', createdBy: 1 },
      ));
      throw new Error('the write failed');
    }),
  ).rejects.toThrow('the write failed');
  expect(await getJobStatus(db, 'acme', rolledBack)).toBeNull();
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from pgboss.job where id = $1`, [
    rolledBack,
  ]);
  expect(rows[0]!.n).toBe(0);

  const { id } = await db.transaction((tx) =>
    enqueue(tx, effectJob, { note: 'embedded' }, { tenant: 'acme', createdBy: 2 }),
  );
  const done = await waitForStatus(db, 'acme', id, (s) => s.state === 'done');
  expect(done).toMatchObject({ attempts: 1, progress: 100, result: { note: 'embedded' }, created_by: 2 });
  expect(await effectsOf(db, id)).toEqual(['embedded']);
  expect((await listJobStatuses(db, 'acme', { kind: 'test.effect' })).map((s) => s.id)).toContain(id);
});

it('retries a failing job and ends failed with its message', async () => {
  const { id } = await db.transaction((tx) =>
    enqueue(tx, failingJob, { reason: 'closed' }, { tenant: 'acme', createdBy: 1 }),
  );
  const failed = await waitForStatus(db, 'acme', id, (s) => s.state === 'failed');
  expect(failed).toMatchObject({ error: 'Could not reach the bank: closed', attempts: 3, max_attempts: 3 });
  expect((await runsOf(db, id)).map((r) => r.attempt)).toEqual([1, 2, 3]);
});

it('shows progress while running', async () => {
  const { id } = await db.transaction((tx) =>
    enqueue(tx, steppedJob, { steps: 1 }, { tenant: 'acme', createdBy: 1 }),
  );
  expect(await waitForStatus(db, 'acme', id, (s) => s.message === 'Step 1 of 1')).toMatchObject({
    state: 'running',
    progress: 50,
  });
  await db.query(`insert into public.job_test_effects (job_id, note) values ($1, 'go 1')`, [id]);
  expect(await waitForStatus(db, 'acme', id, (s) => s.state === 'done')).toMatchObject({ progress: 100 });
});

it('retries an attempt that outlives its time limit, applying the effect once', async () => {
  // The first attempt hangs after its effect; pg-boss fails it at expireInSeconds (3 s) and retries.
  const { id } = await db.transaction((tx) =>
    enqueue(tx, effectJob, { note: 'slow', hold: true }, { tenant: 'acme', createdBy: 1 }),
  );
  const done = await waitForStatus(db, 'acme', id, (s) => s.state === 'done', { timeoutMs: 25_000 });
  expect(done).toMatchObject({ attempts: 2, error: null, result: { note: 'slow' } });
  expect((await runsOf(db, id)).map((r) => r.attempt)).toEqual([1, 2]);
  expect(await effectsOf(db, id)).toEqual(['slow']);
}, 30_000);
