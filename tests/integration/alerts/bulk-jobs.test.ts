import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { getJobStatus, JobWorker, type JobContext } from '@portal/jobs';
import { autoAcceptJob, BULK_BATCH, BULK_JOBS } from '../../../services/case/src/bulk-close/bulk-run';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/** Bulk auto-accept and auto-refund rules (spec 2 §2.9, §4, §5) with the real job engine. */
let c: CaseApp;
let worker: JobWorker | undefined;
const log = createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'bulk-test');
const mAdmin = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => {
  await worker?.stop(1);
  await c.close();
});

async function startWorker() {
  worker ??= new JobWorker({ db: c.t.db, log, jobs: BULK_JOBS, pollingIntervalSeconds: 0.5 });
  if (worker.state !== 'started') await worker.start();
}

async function waitForBulk(id: number, state: string) {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const { rows } = await c.t.db.query<{ state: string }>(
      'select state from cases.bulk_jobs where id = $1',
      [id],
    );
    if (rows[0]?.state === state) return;
    if (Date.now() > deadline) throw new Error(`bulk job ${id} stayed ${rows[0]?.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The most common (currency, cycle, reason code) among merchantA1's New cases. */
async function busiestCriteria() {
  const { rows } = await c.t.db.query<{
    currency_id: number;
    cycle_id: number;
    reason_code_id: number;
    n: number;
  }>(
    `select dispute_currency_id as currency_id, cycle_id, reason_code_id, count(*)::int as n
     from cases.cases where merchant_id = $1 and status_id = 1 group by 1, 2, 3 order by n desc, 1, 2, 3 limit 1`,
    [A1],
  );
  return rows[0]!;
}

const matching = async (q: { currency_id: number; cycle_id: number; reason_code_id: number }) =>
  (
    await c.t.db.query<{ id: string }>(
      `select id from cases.cases where merchant_id = $1 and status_id = 1 and dispute_currency_id = $2
       and cycle_id = $3 and reason_code_id = $4 and dispute_amt between 0 and 100000 order by id`,
      [A1, q.currency_id, q.cycle_id, q.reason_code_id],
    )
  ).rows.map((r) => Number(r.id));

const URL = '/cm/cases/process/autoaccept';

describe('bulk auto-accept: submitting criteria', () => {
  const full = { amt_from: 0, amt_to: 100, currency_id: 1, cycle_id: 1, reason_code_id: 101 };
  it.each([
    ['no criteria', {}, 400, 'amt_from, amt_to, currency_id, cycle_id, reason_code_id'],
    ['no reason code', { ...full, reason_code_id: undefined }, 400, 'reason_code_id'],
    [
      'max below min',
      { ...full, amt_from: 50, amt_to: 10 },
      400,
      'The maximum value cannot be lower than the minimum value.',
    ],
    ['three decimals', { ...full, amt_to: 10.005 }, 400, 'amt_to'],
    ['an unknown currency', { ...full, currency_id: 999 }, 400, 'currency_id'],
    ['a merchant outside the scope', { ...full, merchant_id: A2 }, 400, 'merchant_id'],
    ['confirming without an id', { is_confirmed: 1 }, 400, 'id'],
  ])('refuses %s', async (_n, body, status, text) => {
    const before = await c.t.db.query<{ n: number }>('select count(*)::int as n from cases.bulk_jobs');
    const r = await c.call('POST', URL, mAdmin, body);
    expect(r.status).toBe(status);
    expect(r.body.message).toContain(text);
    const after = await c.t.db.query<{ n: number }>('select count(*)::int as n from cases.bulk_jobs');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('refuses read-only users and calls without a user', async () => {
    expect((await c.call('POST', URL, readonly, full)).status).toBe(403);
    const system = await c.call('POST', URL, { tenant: 'acme', kind: 'system' }, full);
    expect(system.status).toBe(401);
    expect(system.body.message).toBe('No authenticated user');
  });
});

describe('bulk auto-accept: preview, confirm, run', () => {
  it('counts the New cases in scope, queues once on confirm, closes exactly those cases and is idempotent', async () => {
    const crit = await busiestCriteria();
    const expected = await matching(crit);
    expect(expected.length).toBeGreaterThan(0);
    const body = { amt_from: 0, amt_to: 100000, ...crit, user_id: 5 };
    delete (body as { n?: number }).n;

    // Cancel discards a pending job; it can then not be confirmed.
    const discarded = await c.call('POST', URL, mAdmin, body);
    expect(discarded.status).toBe(200);
    const cancelled = await c.call('POST', URL, mAdmin, { id: discarded.body.id, is_confirmed: 0 });
    expect(cancelled.body.state).toBe('cancelled');
    expect((await c.call('POST', URL, mAdmin, { id: discarded.body.id, is_confirmed: 1 })).status).toBe(409);

    const submitted = await c.call('POST', URL, mAdmin, body);
    expect(submitted.body).toMatchObject({ state: 'pending', preview_num: expected.length, records_num: 0 });
    const id = submitted.body.id as number;
    const confirmed = await c.call('POST', URL, mAdmin, { id, is_confirmed: 1 });
    expect(confirmed.body).toMatchObject({ state: 'confirmed', date_run_end: null });
    const again = await c.call('POST', URL, mAdmin, { id, is_confirmed: 1 });
    expect(again.body.job_id).toBe(confirmed.body.job_id);
    const queued = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from jobs.job_status where kind = 'case.bulk-close' and id = $1`,
      [confirmed.body.job_id],
    );
    expect(queued.rows[0]!.n).toBe(1);

    // While it is scheduled another one for the merchant cannot be confirmed.
    const second = await c.call('POST', URL, mAdmin, body);
    expect((await c.call('POST', URL, mAdmin, { id: second.body.id, is_confirmed: 1 })).status).toBe(409);
    await c.call('POST', URL, mAdmin, { id: second.body.id, is_confirmed: 0 });

    // The list shows the scheduled job first (id descending).
    const list = await c.call('GET', URL, mAdmin);
    expect(list.body.data.map((j: { id: number }) => j.id)).toEqual(
      [...list.body.data.map((j: { id: number }) => j.id)].sort((a: number, b: number) => b - a),
    );
    expect(list.body.data.find((j: { id: number }) => j.id === id).state).toBe('confirmed');

    await startWorker();
    await waitForBulk(id, 'done');
    // The queue marks its job done once the handler has returned, a moment after the bulk row.
    await expect
      .poll(async () => (await getJobStatus(c.t.db, 'acme', confirmed.body.job_id))?.state)
      .toBe('done');
    const { rows } = await c.t.db.query<{ id: string; status_id: number; verdict_id: number; h: number }>(
      `select c.id, c.status_id, c.verdict_id,
         (select count(*)::int from cases.case_history h where h.case_id = c.id and h.action = $2) as h
       from cases.cases c where c.id = any($1::bigint[]) order by c.id`,
      [expected, `Bulk auto-accept job #${id}: moved to Do Not Represent (Loss)`],
    );
    expect(rows.map((r) => [Number(r.id), r.status_id, r.verdict_id, r.h])).toEqual(
      expected.map((cid) => [cid, 4, 5, 1]),
    );
    const done = (await c.call('GET', URL, mAdmin)).body.data.find((j: { id: number }) => j.id === id);
    expect(done.records_num).toBe(expected.length);
    expect(done.date_run_end).toMatch(/^\d{4}-/);
    expect(await matching(crit)).toEqual([]);

    // A retried delivery (the completion was lost: state back to running) changes nothing more.
    await c.t.db.query(`update cases.bulk_jobs set state = 'running', date_run_end = null where id = $1`, [
      id,
    ]);
    const ctx = {
      id: confirmed.body.job_id,
      kind: autoAcceptJob.name,
      tenant: 'acme',
      createdBy: null,
      data: { bulk_job_id: id },
      attempt: 2,
      maxAttempts: 4,
      db: c.t.db,
      env: undefined,
      log,
      signal: new AbortController().signal,
      progress: async () => {},
      once: async () => {
        throw new Error('not used');
      },
    } as unknown as JobContext<{ bulk_job_id: number }>;
    expect(await autoAcceptJob.handler(ctx)).toBe(expected.length);
    const history = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.case_history where action = $1`,
      [`Bulk auto-accept job #${id}: moved to Do Not Represent (Loss)`],
    );
    expect(history.rows[0]!.n).toBe(expected.length);
    const after = await c.t.db.query<{ records_num: number; state: string }>(
      'select records_num, state from cases.bulk_jobs where id = $1',
      [id],
    );
    expect(after.rows[0]).toEqual({ records_num: expected.length, state: 'done' });
  });
});

describe('bulk auto-accept: a run stopped mid-way', () => {
  it('resumes where it stopped: every case closed once, records_num equal to the preview', async () => {
    // More New cases than two batches, on criteria of their own.
    const extra = 2 * BULK_BATCH + 321;
    await c.t.db.query(
      `insert into cases.cases (tenant_id, merchant_id, mid_id, case_no, order_id, cycle_id, card_type_id, reason_code_id,
         is_fraud, date_post, date_due, dispute_amt, dispute_currency_id, status_id, status_group_id, verdict_id)
       select 'acme', m.merchant_id, m.id, 'BULK-' || g, 'ORD-B' || g, 2, 4, 435, false, current_date - 3, current_date + 40,
         10 + (g % 50), 6, 1, 1, 3
       from generate_series(1, $2::int) g
       cross join (select id, merchant_id from cases.mids where merchant_id = $1 order by id limit 1) m`,
      [A1, extra],
    );
    const crit = { currency_id: 6, cycle_id: 2, reason_code_id: 435 };
    const expected = await matching(crit);
    expect(expected.length).toBeGreaterThanOrEqual(extra);
    const submitted = await c.call('POST', URL, mAdmin, { amt_from: 0, amt_to: 100000, ...crit });
    expect(submitted.body.preview_num).toBe(expected.length);
    const id = submitted.body.id as number;
    // Confirmed as the route does, but run here by hand (no worker on this queue in between).
    await worker?.stop(1);
    worker = undefined;
    const confirmed = await c.call('POST', URL, mAdmin, { id, is_confirmed: 1 });
    expect(confirmed.status).toBe(200);

    // First attempt: the worker is 'killed' after the first batch (its time runs out).
    const controller = new AbortController();
    const attempt = (n: number, signal: AbortSignal) =>
      ({
        id: confirmed.body.job_id,
        kind: autoAcceptJob.name,
        tenant: 'acme',
        createdBy: null,
        data: { bulk_job_id: id },
        attempt: n,
        maxAttempts: 4,
        db: c.t.db,
        env: undefined,
        log,
        signal,
        progress: async () => controller.abort(),
        once: async () => {
          throw new Error('not used');
        },
      }) as unknown as JobContext<{ bulk_job_id: number }>;
    await expect(autoAcceptJob.handler(attempt(1, controller.signal))).rejects.toThrow('resumes');
    const mid = await c.t.db.query<{ records_num: number; state: string }>(
      'select records_num, state from cases.bulk_jobs where id = $1',
      [id],
    );
    // The attempt ends once every loop has ended its batch in flight: one batch per loop at most.
    const first = mid.rows[0]!.records_num;
    expect(mid.rows[0]!.state).toBe('running');
    expect(first % BULK_BATCH).toBe(0);
    expect(first).toBeGreaterThanOrEqual(BULK_BATCH);
    expect(first).toBeLessThan(expected.length);
    expect((await matching(crit)).length).toBe(expected.length - first);

    // The retry finishes the rest.
    expect(await autoAcceptJob.handler(attempt(2, new AbortController().signal))).toBe(expected.length);
    const end = await c.t.db.query<{ records_num: number; state: string }>(
      'select records_num, state from cases.bulk_jobs where id = $1',
      [id],
    );
    expect(end.rows[0]).toEqual({ records_num: expected.length, state: 'done' });
    expect(await matching(crit)).toEqual([]);
    const history = await c.t.db.query<{ n: number; distinct_cases: number }>(
      `select count(*)::int as n, count(distinct case_id)::int as distinct_cases from cases.case_history where action = $1`,
      [`Bulk auto-accept job #${id}: moved to Do Not Represent (Loss)`],
    );
    expect(history.rows[0]).toEqual({ n: expected.length, distinct_cases: expected.length });
  });
});

describe('auto-refund rules', () => {
  const RULES = '/cm/svc/alerts/auto-refund';
  it('previews the open alerts of the rule, then refunds and completes exactly those with history', async () => {
    const { rows: pick } = await c.t.db.query<{
      descriptor_id: string;
      source_id: number;
      card_type_id: number;
      currency_id: number;
    }>(
      `select descriptor_id, source_id, card_type_id, currency_id from cases.alerts
       where merchant_id = $1 and not completed group by 1, 2, 3, 4 order by count(*) desc, 1 limit 1`,
      [A1],
    );
    const p = pick[0]!;
    const open = async () =>
      (
        await c.t.db.query<{ id: string }>(
          `select id from cases.alerts where descriptor_id = $1 and source_id = $2 and card_type_id = $3
           and currency_id = $4 and not completed and trans_amount between 0 and 100000 order by id`,
          [p.descriptor_id, p.source_id, p.card_type_id, p.currency_id],
        )
      ).rows.map((r) => Number(r.id));
    const expected = await open();
    const body = {
      amt_from: 0,
      amt_to: 100000,
      currency_id: p.currency_id,
      source_id: p.source_id,
      card_type_id: p.card_type_id,
      mid_descriptor_id: Number(p.descriptor_id),
    };
    const missing = await c.call('POST', RULES, mAdmin, { ...body, source_id: undefined });
    expect(missing.status).toBe(400);
    expect((await c.call('POST', RULES, readonly, body)).status).toBe(403);
    const foreign = await c.t.db.query<{ id: string }>(
      'select id from cases.alert_descriptors where merchant_id = $1 limit 1',
      [A2],
    );
    const bad = await c.call('POST', RULES, mAdmin, {
      ...body,
      mid_descriptor_id: Number(foreign.rows[0]!.id),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('mid_descriptor_id');

    const created = await c.call('POST', RULES, mAdmin, body);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ state: 'pending', preview_num: expected.length });
    const confirmed = await c.call('POST', `${RULES}/${created.body.id}/confirm`, mAdmin, {
      is_confirmed: 1,
    });
    expect(confirmed.body.state).toBe('confirmed');
    await startWorker();
    await waitForBulk(created.body.id, 'done');
    expect(await open()).toEqual([]);
    const { rows } = await c.t.db.query<{
      outcome_id: number;
      completed: boolean;
      refund_id: string;
      h: number;
    }>(
      `select a.outcome_id, a.completed, a.refund_id,
         (select count(*)::int from cases.alert_history h where h.alert_id = a.id and h.action like '%auto refund rule #' || $2) as h
       from cases.alerts a where a.id = any($1::bigint[])`,
      [expected, String(created.body.id)],
    );
    expect(rows).toHaveLength(expected.length);
    for (const r of rows) expect(r).toMatchObject({ outcome_id: 1, completed: true, h: 2 });
    const list = await c.call('GET', RULES, mAdmin);
    expect(list.body.data[0]).toMatchObject({
      id: created.body.id,
      state: 'done',
      records_num: expected.length,
    });
  });
});
