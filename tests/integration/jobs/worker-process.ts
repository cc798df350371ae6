import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { TestEnv } from '../../support/test-env';

export interface WorkerProcess {
  proc: ChildProcess;
  /** Its health port. */
  port: number;
}

/**
 * Worker processes (runner mode `worker`, worker-child.ts) on the test file's database. `start`
 * resolves once the worker takes jobs; `killAll` (afterAll) SIGKILLs those still running.
 */
export function workerProcesses(t: TestEnv) {
  const children: ChildProcess[] = [];
  return {
    /** `liveness`: the worker's heartbeat timings (JobWorkerOptions), when not the defaults. */
    start(liveness: { heartbeatSeconds?: number; deadAfterSeconds?: number } = {}): Promise<WorkerProcess> {
      const proc = spawn(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'worker-child.ts')],
        {
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
            TEST_JOB_LIVENESS: JSON.stringify(liveness),
          },
        },
      );
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
    },
    killAll() {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export const exited = (proc: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null)
      resolve({ code: proc.exitCode, signal: proc.signalCode });
    else proc.once('exit', (code, signal) => resolve({ code, signal }));
  });
