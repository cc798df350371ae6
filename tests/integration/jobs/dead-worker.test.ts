/**
 * Worker liveness on Postgres (issue 31 §4): a worker that dies mid-job is
 * detected by its stale heartbeat and its job retried within seconds, not
 * after the job's time limit (heldJob keeps the default 15 minutes); a live
 * worker's long job is never taken.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, migrateJobs } from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { effectsOf, quietLog, runsOf, waitForStatus } from './helpers';
import {
  beatingWorkers,
  deadPeerIsTakenOver,
  liveWorkersJobIsKept,
  lostFetchIsRetried,
  lostOutcomeIsRecorded,
  LIVENESS,
  pgbossJob,
} from './liveness-scenarios';
import { createTestTables, heldJob, TEST_JOBS } from './test-jobs';
import { exited, workerProcesses } from './worker-process';

let t: TestEnv;
let workers: ReturnType<typeof workerProcesses>;

beforeAll(async () => {
  t = await createTestEnv();
  await createTestTables(t.db);
  await migrateJobs(t.db, TEST_JOBS, quietLog());
  workers = workerProcesses(t);
});
afterAll(async () => {
  workers?.killAll();
  await t?.close();
});

it('retries the job of a SIGKILLed worker process as soon as a new worker starts', async () => {
  const first = await workers.start(LIVENESS);
  const { id } = await t.db.transaction((tx) =>
    enqueue(tx, heldJob, { note: 'killed' }, { tenant: 'acme', createdBy: 3 }),
  );
  await waitForStatus(t.db, 'acme', id, (s) => s.state === 'running' && s.message === 'Effect applied');
  first.proc.kill('SIGKILL');
  expect(await exited(first.proc)).toEqual({ code: null, signal: 'SIGKILL' });

  const second = await workers.start(LIVENESS);
  const done = await waitForStatus(t.db, 'acme', id, (s) => s.state === 'done');
  expect(done).toMatchObject({ attempts: 2, error: null, result: { note: 'killed' } });
  // One attempt in each process; the effect (a once step of the first attempt) applied once.
  expect((await runsOf(t.db, id)).map((r) => [r.attempt, r.pid])).toEqual([
    [1, first.proc.pid],
    [2, second.proc.pid],
  ]);
  expect(await effectsOf(t.db, id)).toEqual(['killed']);
  expect(await pgbossJob(t.db, id)).toEqual({ state: 'completed', retry_count: 1 });
  // Only the live worker beats; a clean stop (SIGTERM) removes its row too.
  expect(await beatingWorkers(t.db)).toHaveLength(1);
  second.proc.kill('SIGTERM');
  expect(await exited(second.proc)).toEqual({ code: 0, signal: null });
  expect(await beatingWorkers(t.db)).toEqual([]);
}, 40_000);

it('hands a dead worker’s job to a live one (several workers on one database)', () =>
  deadPeerIsTakenOver(t.db));

it('never takes a live worker’s long job', () => liveWorkersJobIsKept(t.db));

it('retries a job whose fetch never reached a worker, long before its time limit', () =>
  lostFetchIsRetried(t.db));

it('records in pg-boss the outcome of a finished job it never heard of, without running it again', () =>
  lostOutcomeIsRecorded(t.db));
