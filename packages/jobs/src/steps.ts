import type { Db, Queryable } from '@portal/core';

/**
 * Runs `fn` in a transaction together with a marker (job id, step): the first
 * attempt that commits wins, a later attempt of the same job (after a crash or
 * a timeout) gets the stored result back without running `fn` again. Results
 * are stored as JSON.
 */
export async function once<R>(
  db: Db,
  jobId: string,
  step: string,
  fn: (tx: Queryable) => Promise<R>,
): Promise<R> {
  return db.transaction(async (tx) => {
    // Claims the step first: a concurrent attempt (an expired one still running) waits here.
    const { rows } = await tx.query<{ claimed: boolean }>(
      `insert into jobs.job_steps (job_id, step) values ($1, $2)
       on conflict (job_id, step) do nothing returning true as claimed`,
      [jobId, step],
    );
    if (!rows.length) {
      const done = await tx.query<{ result: R }>(
        `select result from jobs.job_steps where job_id = $1 and step = $2`,
        [jobId, step],
      );
      return done.rows[0]!.result;
    }
    const result = await fn(tx);
    await tx.query(`update jobs.job_steps set result = $3::jsonb where job_id = $1 and step = $2`, [
      jobId,
      step,
      JSON.stringify(result ?? null),
    ]);
    return result;
  });
}
