import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { EVENT_DISPATCH_QUEUE } from '@portal/jobs';
import { ACME, demoCtx } from '../case/case-app';
import { TestReceiver, type Received } from './receiver';
import { eventually, startWebhookWorld, verifies, type WebhookWorld } from './support';

/**
 * CASE_CREATED and ALERT_CREATED (issue 19): a chargeback imported from a
 * feed (POST /cm/cases/import) and an alert ingested from a network feed
 * (POST /cm/alerts) reach the merchant's webhook endpoint, signed; a resent
 * record creates nothing and emits nothing; refused or invalid calls change
 * nothing.
 */
let w: WebhookWorld;
const receiver = new TestReceiver();
const admin = demoCtx('acme', 'admin');
const mAdmin = demoCtx('acme', 'merchant.admin');
const A1 = demoMerchantId(ACME, 'merchantA1');
let secret = '';

const alert = (ref: string, extra: Record<string, unknown> = {}) => ({
  source_id: 1,
  source_alert_id: ref,
  merchant_id: A1,
  descriptor: 'ACME*FEED TEST',
  order_id: 'ORD-1',
  trans_amount: 49.99,
  currency_id: 1,
  trans_date: '2026-11-20',
  card_type_id: 1,
  cc_bin: '411111',
  cc_last_four: '1111',
  expiration_date: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  ...extra,
});
const payloadOf = (r: Received) => JSON.parse(r.body);
const createdFor = (id: number, key = 'alert_id') =>
  receiver.received.filter((r) => r.path === '/alerts' && payloadOf(r).data[key] === id);
const counts = async () =>
  (
    await w.t.db.query<{ alerts: number; jobs: number }>(
      `select (select count(*)::int from cases.alerts) as alerts,
              (select count(*)::int from jobs.job_status where kind = $1) as jobs`,
      [EVENT_DISPATCH_QUEUE],
    )
  ).rows[0]!;

beforeAll(async () => {
  w = await startWebhookWorld();
  const base = await receiver.start('127.0.0.1');
  const r = await w.userCall('POST', '/users/webhooks', mAdmin, {
    url: `${base}/alerts`,
    events: ['ALERT_CREATED', 'CASE_CREATED'],
  });
  expect(r.status, r.raw).toBe(201);
  secret = r.body.secret;
  await w.startWorker();
});
afterAll(async () => {
  await w?.close();
  await receiver.close();
});

describe('ALERT_CREATED', () => {
  it('is delivered signed once an alert is ingested, and only once for a resent alert', async () => {
    const r = await w.caseCall('POST', '/cm/alerts', admin, alert('ETH-0001'));
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toEqual({ id: expect.any(Number), created: true });
    const id = r.body.id as number;
    await eventually(async () => createdFor(id).length > 0);
    const got = createdFor(id)[0]!;
    expect(payloadOf(got)).toMatchObject({
      type: 'ALERT_CREATED',
      tenant: 'acme',
      merchant_id: A1,
      data: { alert_id: id, source_id: 1, source_alert_id: 'ETH-0001', descriptor: 'ACME*FEED TEST' },
    });
    expect(verifies(secret, got.body, got.headers['portal-signature'])).toBe(true);
    // The alert is in the merchant's list, its new descriptor unmapped ('Select MID').
    const row = await w.t.db.query<{ mid_id: string | null; completed: boolean }>(
      `select d.mid_id, a.completed from cases.alerts a join cases.alert_descriptors d on d.id = a.descriptor_id where a.id = $1`,
      [id],
    );
    expect(row.rows).toEqual([{ mid_id: null, completed: false }]);

    const before = await counts();
    const again = await w.caseCall('POST', '/cm/alerts', admin, alert('ETH-0001', { trans_amount: 1 }));
    expect(again.status, again.raw).toBe(200);
    expect(again.body).toEqual({ id, created: false });
    expect(await counts()).toEqual(before);
    // The same network id from another source is another alert.
    expect((await w.caseCall('POST', '/cm/alerts', admin, alert('ETH-0001', { source_id: 2 }))).status).toBe(
      201,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(createdFor(id)).toHaveLength(1);
  });

  it('is refused to other roles and to invalid alerts, which change nothing', async () => {
    const before = await counts();
    expect((await w.caseCall('POST', '/cm/alerts', mAdmin, alert('ETH-0002'))).status).toBe(403);
    expect(
      (await w.caseCall('POST', '/cm/alerts', demoCtx('acme', 'manager'), alert('ETH-0002'))).status,
    ).toBe(403);
    const bad = [
      alert('ETH-0003', { currency_id: 99_999 }),
      alert('ETH-0004', { source_id: 77 }),
      alert('ETH-0005', { expiration_date: '2020-01-01T00:00:00Z' }),
      alert('ETH-0006', { trans_date: '20-11-2026' }),
      alert('ETH-0009', { trans_date: '2026-02-30' }),
      alert('', {}),
      { ...alert('ETH-0007'), surprise: true },
    ];
    for (const body of bad) {
      const r = await w.caseCall('POST', '/cm/alerts', admin, body);
      expect(r.status, r.raw).toBe(400);
    }
    const foreign = await w.caseCall(
      'POST',
      '/cm/alerts',
      admin,
      alert('ETH-0008', { merchant_id: demoMerchantId(ACME, 'merchantA1') + 9_999_999 }),
    );
    expect(foreign.status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('CASE_CREATED', () => {
  let chargeback: (ref: string, extra?: Record<string, unknown>) => Record<string, unknown>;
  beforeAll(async () => {
    const mid = (
      await w.t.db.query<{ id: string }>(
        `select id from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 1`,
        [A1],
      )
    ).rows[0]!;
    const rc = (
      await w.t.db.query<{ id: number }>(
        `select id from cases.reason_codes where card_type_id = 1 order by id limit 1`,
      )
    ).rows[0]!;
    chargeback = (ref, extra = {}) => ({
      source_id: 4,
      source_case_id: ref,
      mid_id: Number(mid.id),
      case_no: `IMP-${ref}`,
      cycle_id: 1,
      reason_code_id: rc.id,
      date_post: '2026-11-20',
      date_due: '2026-12-20',
      dispute_amt: 120.5,
      dispute_currency_id: 1,
      order_id: 'ORD-77',
      ...extra,
    });
  });
  const caseCounts = async () =>
    (
      await w.t.db.query<{ cases: number; jobs: number }>(
        `select (select count(*)::int from cases.cases) as cases,
                (select count(*)::int from jobs.job_status where kind = $1) as jobs`,
        [EVENT_DISPATCH_QUEUE],
      )
    ).rows[0]!;

  it('reaches the endpoint after an import, signed, once for a resent chargeback', async () => {
    const r = await w.caseCall('POST', '/cm/cases/import', admin, chargeback('ACQ-1'));
    expect(r.status, r.raw).toBe(201);
    const id = r.body.id as number;
    await eventually(async () => createdFor(id, 'case_id').length > 0);
    const got = createdFor(id, 'case_id')[0]!;
    expect(payloadOf(got)).toMatchObject({
      type: 'CASE_CREATED',
      tenant: 'acme',
      merchant_id: A1,
      data: { case_id: id, case_no: 'IMP-ACQ-1', status: 'New', dispute_amt: 120.5 },
    });
    expect(verifies(secret, got.body, got.headers['portal-signature'])).toBe(true);
    // The case is a real New case of the merchant, with its history.
    const row = await w.t.db.query<{ merchant_id: number; status_id: number; verdict_id: number; n: number }>(
      `select c.merchant_id::int as merchant_id, c.status_id, c.verdict_id,
              (select count(*)::int from cases.case_history h where h.case_id = c.id) as n
         from cases.cases c where c.id = $1`,
      [id],
    );
    expect(row.rows).toEqual([{ merchant_id: A1, status_id: 1, verdict_id: 3, n: 1 }]);
    const seen = await w.caseCall('GET', `/cm/cases/${id}`, mAdmin);
    expect(seen.status, seen.raw).toBe(200);

    const before = await caseCounts();
    const again = await w.caseCall(
      'POST',
      '/cm/cases/import',
      admin,
      chargeback('ACQ-1', { dispute_amt: 1 }),
    );
    expect(again.status, again.raw).toBe(200);
    expect(again.body).toEqual({ id, created: false });
    expect(await caseCounts()).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(createdFor(id, 'case_id')).toHaveLength(1);
  });

  it('is refused to other roles and to invalid chargebacks, which change nothing', async () => {
    const before = await caseCounts();
    expect((await w.caseCall('POST', '/cm/cases/import', mAdmin, chargeback('ACQ-2'))).status).toBe(403);
    for (const body of [
      chargeback('ACQ-3', { reason_code_id: 999_999 }),
      chargeback('ACQ-4', { cycle_id: 99 }),
      chargeback('ACQ-5', { date_due: '2026-11-01' }),
      chargeback('ACQ-6', { date_post: '2026-02-30' }),
      chargeback('ACQ-7', { dispute_amt: -5 }),
      { ...chargeback('ACQ-8'), status_id: 10 },
    ]) {
      const r = await w.caseCall('POST', '/cm/cases/import', admin, body);
      expect(r.status, r.raw).toBe(400);
    }
    const nbMid = (
      await w.t.db.query<{ id: string }>(
        `select id from cases.mids where tenant_id <> 'acme' order by id limit 1`,
      )
    ).rows[0]!;
    expect(
      (await w.caseCall('POST', '/cm/cases/import', admin, chargeback('ACQ-9', { mid_id: Number(nbMid.id) })))
        .status,
    ).toBe(404);
    expect(await caseCounts()).toEqual(before);
  });
});
