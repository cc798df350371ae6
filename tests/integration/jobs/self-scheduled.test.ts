/**
 * selfScheduledJob: schedule() enqueues the next slot once however often it is called, and each run
 * enqueues the slot after the later of its own and the current one (never a slot already past).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, JobWorker, migrateJobs, selfScheduledJob } from '@portal/jobs';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { quietLog, waitForStatus } from './helpers';

// A day: a test run crossing a slot boundary would see two current slots (beforeAll waits that out).
const DAY = 86_400_000;
const daily = selfScheduledJob({
  name: 'test.self-scheduled',
  intervalSeconds: DAY / 1000,
  tenant: 'system',
  retryLimit: 0,
  retryDelaySeconds: 1,
  expireInSeconds: 10,
  run: async (ctx) => {
    await ctx.progress(100, 'Ran');
    return { ran: ctx.data.slot };
  },
});

let t: TestEnv;
let worker: JobWorker;
const log = quietLog();
let slot: number;

beforeAll(async () => {
  const left = DAY - (Date.now() % DAY);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  slot = Math.floor(Date.now() / DAY);
  t = await createTestEnv();
  await migrateJobs(t.db, [daily.job], log);
  worker = new JobWorker({ db: t.db, log, jobs: [daily.job], pollingIntervalSeconds: 0.5 });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(10);
  await t?.close();
});

const queued = async () =>
  (
    await t.db.query<{ id: string; tenant: string; singleton_key: string; start_after: Date }>(
      `select s.id, s.tenant, s.singleton_key, j.start_after from jobs.job_status s
         join pgboss.job j on j.id = s.id
        where s.kind = $1 and s.state = 'queued' order by j.start_after`,
      [daily.job.name],
    )
  ).rows.map((r) => ({ ...r, start_after: new Date(r.start_after).getTime() }));

/** A run of `runSlot` that starts now, as a late or replayed run would. */
async function runNow(runSlot: number) {
  const { id } = await t.db.transaction((tx) =>
    enqueue(tx, daily.job, { slot: runSlot }, { tenant: 'system', createdBy: null }),
  );
  const done = await waitForStatus(t.db, 'system', id, (s) => s.state !== 'queued' && s.state !== 'running');
  expect(done).toMatchObject({ state: 'done', result: { ran: runSlot } });
  const { rows } = await t.db.query<{ result: unknown }>(
    `select result from jobs.job_steps where job_id = $1 and step = 'schedule-next'`,
    [id],
  );
  return rows[0]?.result;
}

describe('selfScheduledJob', () => {
  it('checks its interval and keeps the job options', () => {
    expect(() =>
      selfScheduledJob({ name: 'test.bad', intervalSeconds: 0.5, tenant: 'x', run: async () => 1 }),
    ).toThrow(/intervalSeconds/);
    expect(daily.job).toMatchObject({ name: 'test.self-scheduled', retryLimit: 0, expireInSeconds: 10 });
    expect(daily.slotOf(slot * DAY + DAY - 1)).toBe(slot);
  });

  it('schedule() enqueues the next slot once, at its start, for any time within the slot', async () => {
    const first = await t.db.transaction((tx) => daily.schedule(tx, slot * DAY + 1));
    const again = await t.db.transaction((tx) => daily.schedule(tx, slot * DAY + DAY - 1));
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect(await queued()).toEqual([
      { id: first.id, tenant: 'system', singleton_key: `slot-${slot + 1}`, start_after: (slot + 1) * DAY },
    ]);
  });

  it('a run of a past slot schedules the slot after the current one (the queued run), not the missed ones', async () => {
    const [next] = await queued();
    expect(await runNow(slot - 5)).toEqual({ id: next!.id, created: false });
    expect((await queued()).map((j) => j.singleton_key)).toEqual([`slot-${slot + 1}`]);
  });

  it('a run of a later slot schedules the slot after its own', async () => {
    const scheduled = await runNow(slot + 10);
    expect(scheduled).toMatchObject({ created: true });
    expect(await queued()).toEqual([
      expect.objectContaining({ singleton_key: `slot-${slot + 1}` }),
      {
        id: (scheduled as { id: string }).id,
        tenant: 'system',
        singleton_key: `slot-${slot + 11}`,
        start_after: (slot + 11) * DAY,
      },
    ]);
  });
});
