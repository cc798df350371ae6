/**
 * A queue with jobs waiting is worked without pauses: pg-boss waits out its
 * polling interval after every fetch, jobs found or not, which capped each
 * queue at one job per interval (the event outbox fell behind the crowd
 * bench's writes, issue 31). With a 30 s interval, five queued jobs must not
 * take two minutes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, JobWorker, migrateJobs } from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { quietLog } from './helpers';
import { createTestTables, effectJob, TEST_JOBS } from './test-jobs';

let t: TestEnv;
let worker: JobWorker | undefined;
const log = quietLog();

beforeAll(async () => {
  t = await createTestEnv();
  await createTestTables(t.db);
  await migrateJobs(t.db, TEST_JOBS, log);
});
afterAll(async () => {
  await worker?.stop(1);
  await t?.close();
});

it('works queued jobs one after another, waiting the polling interval only when the queue is empty', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(
      (
        await t.db.transaction((tx) =>
          enqueue(tx, effectJob, { note: `queued ${i}` }, { tenant: 'acme', createdBy: null }),
        )
      ).id,
    );
  worker = new JobWorker({ db: t.db, log, jobs: TEST_JOBS, pollingIntervalSeconds: 30 });
  await worker.start();
  const done = async () =>
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from jobs.job_status where id = any($1::uuid[]) and state = 'done'`,
        [ids],
      )
    ).rows[0]!.n;
  // Without the fix the fifth job starts after four intervals (2 minutes).
  await expect.poll(done, { timeout: 20_000, interval: 200 }).toBe(5);
});
