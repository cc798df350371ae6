import { expect } from 'vitest';
import { createLogger, type Db, type Queryable } from '@portal/core';
import { getJobStatus, type JobStatus } from '@portal/jobs';

/** Handlers log each failed attempt at warn: keep test output to errors. */
export const quietLog = () => createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'jobs-test');

/** Polls the job's status record until `done(status)` holds; every status seen goes to `seen`. */
export async function waitForStatus(
  db: Queryable,
  tenant: string,
  id: string,
  done: (status: JobStatus) => boolean,
  { timeoutMs = 20_000, seen = [] as JobStatus[] } = {},
): Promise<JobStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await getJobStatus(db, tenant, id);
    expect(status, `job ${id}`).not.toBeNull();
    seen.push(status!);
    if (done(status!)) return status!;
    if (Date.now() > deadline) {
      throw new Error(`job ${id} did not reach the expected state; last: ${JSON.stringify(status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function runsOf(db: Queryable, jobId: string) {
  const { rows } = await db.query<{ attempt: number; pid: number; at: Date }>(
    `select attempt, pid, at from public.job_test_runs where job_id = $1 order by at`,
    [jobId],
  );
  return rows;
}

export async function effectsOf(db: Queryable, jobId: string) {
  const { rows } = await db.query<{ note: string }>(
    `select note from public.job_test_effects where job_id = $1 and note not like 'go %' order by at`,
    [jobId],
  );
  return rows.map((r) => r.note);
}

/**
 * The database as one in-process worker sees it, until `sever()`: from then on
 * every call fails without reaching the database, as if the worker's process
 * were gone (no beat, no completion; a transaction already open finishes).
 * `restore()` reconnects it, to stop the worker cleanly.
 */
export function severable(db: Db) {
  let severed = false;
  const gone = () => Promise.reject(new Error('test: this worker process is gone'));
  const view: Db = {
    kind: db.kind,
    query: <R>(sql: string, params?: readonly unknown[]) => (severed ? gone() : db.query<R>(sql, params)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => (severed ? gone() : db.transaction(fn)),
    stream: (sql, params, batchSize) => db.stream(sql, params, batchSize),
    close: async () => undefined,
  };
  return {
    db: view,
    sever: () => void (severed = true),
    restore: () => void (severed = false),
  };
}

/** A logger that prints nothing (a severed worker's errors are expected). */
export const silentLog = () => createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }, 'jobs-test');
