/**
 * A job survives its worker dying: the worker (runner mode `worker`, a child
 * process) is killed with SIGKILL while the handler runs; another worker
 * process retries it after its time limit (3 s, sooner than the dead
 * worker's heartbeat goes stale: dead-worker.test.ts covers that path) and it
 * completes exactly once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, migrateJobs } from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { effectsOf, quietLog, runsOf, waitForStatus } from './helpers';
import { createTestTables, effectJob, TEST_JOBS } from './test-jobs';
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

const startWorker = () => workers.start();

it('completes exactly once after its worker is killed mid-run and another one starts', async () => {
  const first = await startWorker();
  const health = await fetch(`http://127.0.0.1:${first.port}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({
    status: 'ok',
    service: 'worker',
    checks: { postgres: 'up', worker: 'up' },
  });

  const { id } = await t.db.transaction((tx) =>
    enqueue(tx, effectJob, { note: 'crash', hold: true }, { tenant: 'acme', createdBy: 3 }),
  );
  // The handler applied its effect and is still running when the process dies.
  await waitForStatus(t.db, 'acme', id, (s) => s.state === 'running' && s.message === 'Effect applied');
  first.proc.kill('SIGKILL');
  expect(await exited(first.proc)).toEqual({ code: null, signal: 'SIGKILL' });
  expect((await runsOf(t.db, id)).map((r) => r.pid)).toEqual([first.proc.pid]);

  const second = await startWorker();
  const done = await waitForStatus(t.db, 'acme', id, (s) => s.state === 'done', { timeoutMs: 25_000 });
  expect(done).toMatchObject({ attempts: 2, progress: 100, error: null, result: { note: 'crash' } });
  // Two attempts, one in each process; the effect applied once.
  expect((await runsOf(t.db, id)).map((r) => [r.attempt, r.pid])).toEqual([
    [1, first.proc.pid],
    [2, second.proc.pid],
  ]);
  expect(await effectsOf(t.db, id)).toEqual(['crash']);
  const { rows } = await t.db.query<{ state: string }>(`select state from pgboss.job where id = $1`, [id]);
  expect(rows[0]?.state).toBe('completed');

  // SIGTERM: the worker stops taking jobs and exits cleanly.
  second.proc.kill('SIGTERM');
  expect(await exited(second.proc)).toEqual({ code: 0, signal: null });
}, 50_000);
