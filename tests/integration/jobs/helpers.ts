import { expect } from 'vitest';
import { createLogger, type Queryable } from '@portal/core';
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
