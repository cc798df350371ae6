/**
 * A job survives its worker dying: the worker (runner mode `worker`, a child
 * process) is killed with SIGKILL while the handler runs; another worker
 * process retries it after its time limit and it completes exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, migrateJobs } from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { effectsOf, quietLog, runsOf, waitForStatus } from './helpers';
import { createTestTables, effectJob, TEST_JOBS } from './test-jobs';

let t: TestEnv;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestEnv();
  await createTestTables(t.db);
  await migrateJobs(t.db, TEST_JOBS, quietLog());
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await t?.close();
});

/** Starts a worker process; resolves with its health port once it takes jobs. */
function startWorker(): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'worker-child.ts')], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATA_DIR: t.env.DATA_DIR,
      DATABASE_URL: t.databaseUrl,
      DATABASE_POOL_SIZE: '3',
      HOST: '127.0.0.1',
      WORKER_PORT: '0',
      WORKER_SHUTDOWN_GRACE_SECONDS: '2',
      JOB_POLL_INTERVAL_SECONDS: '0.5',
      JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
    },
  });
  children.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
}

const exited = (proc: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null)
      resolve({ code: proc.exitCode, signal: proc.signalCode });
    else proc.once('exit', (code, signal) => resolve({ code, signal }));
  });

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
