import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { emitEvent, EVENT_DISPATCH_QUEUE } from '@portal/jobs';
import { ACME, demoCtx, type Ctx } from '../case/case-app';
import { TestReceiver, type Received } from './receiver';
import { eventually, startWebhookWorld, verifies, type WebhookWorld } from './support';

/**
 * Domain events through the real case routes to signed deliveries (issue 19):
 * the outbox job commits with the change, the user service's worker matches
 * endpoints of the change's merchant or one above it and POSTs each.
 */
let w: WebhookWorld;
const receiver = new TestReceiver();
const flaky = new TestReceiver();
const mAdmin = demoCtx('acme', 'merchant.admin');
const manager = demoCtx('acme', 'manager');
const admin = demoCtx('acme', 'admin');
const A1 = demoMerchantId(ACME, 'merchantA1');
const NB = demoTenant('northbank');

interface Endpoint {
  id: number;
  secret: string;
}
const endpoints: Record<'a1' | 'partner' | 'a2' | 'nb' | 'flaky', Endpoint> = {} as never;

async function register(ctx: Ctx, url: string, events: string[]): Promise<Endpoint> {
  const r = await w.userCall('POST', '/users/webhooks', ctx, { url, events });
  expect(r.status, r.raw).toBe(201);
  return { id: r.body.id, secret: r.body.secret };
}

const payloadOf = (r: Received) => JSON.parse(r.body);
/** The requests one endpoint got about one record. */
function receivedAt(rx: TestReceiver, path: string, match: (data: Record<string, unknown>) => boolean) {
  return rx.received.filter((r) => r.path === path && match(payloadOf(r).data));
}
const dispatchJobs = async () =>
  (
    await w.t.db.query<{ n: number }>(`select count(*)::int as n from jobs.job_status where kind = $1`, [
      EVENT_DISPATCH_QUEUE,
    ])
  ).rows[0]!.n;
/** Which endpoints an event was matched to. */
const deliveredTo = async (eventId: string) =>
  (
    await w.t.db.query<{ endpoint_id: string }>(
      'select endpoint_id from users.webhook_deliveries where event_id = $1 order by endpoint_id',
      [eventId],
    )
  ).rows.map((r) => Number(r.endpoint_id));
const deliveriesOf = async (ctx: Ctx, endpointId: number) => {
  const r = await w.userCall('GET', `/users/webhooks/${endpointId}/deliveries?limit=200`, ctx);
  expect(r.status).toBe(200);
  return r.body.data as Array<{
    id: number;
    event_id: string;
    state: string;
    attempts: number;
    response_code: number;
  }>;
};

const used = new Set<number>();
/** A case no other test touched, put in the wanted status first when none is (setup, not the change under test). */
async function caseOf(tenant: string, merchantId: number | null, statusId: number): Promise<number> {
  const pick = async (statusCheck: string) =>
    (
      await w.t.db.query<{ id: string; status_id: number }>(
        `select id, status_id from cases.cases where tenant_id = $1 and ($2::bigint is null or merchant_id = $2)
           and ${statusCheck} and not (id = any($4::bigint[])) order by status_id <> $3, id limit 1`,
        [tenant, merchantId, statusId, [...used]],
      )
    ).rows[0];
  const row = (await pick('status_id = $3')) ?? (await pick('$3::int is not null'))!;
  if (row.status_id !== statusId)
    await w.t.db.query('update cases.cases set status_id = $2 where id = $1', [row.id, statusId]);
  const id = Number(row.id);
  used.add(id);
  return id;
}

beforeAll(async () => {
  w = await startWebhookWorld();
  const base = await receiver.start('127.0.0.1');
  const flakyBase = await flaky.start('127.0.0.1');
  const events = ['CASE_STATUS_CHANGED', 'ALERT_STATUS_CHANGED', 'ERT_CREATED', 'CASE_VERDICT_CHANGED'];
  endpoints.a1 = await register(mAdmin, `${base}/a1`, events);
  endpoints.partner = await register(demoCtx('acme', 'partner.admin'), `${base}/partner`, [
    'CASE_STATUS_CHANGED',
  ]);
  endpoints.a2 = await register(demoCtx('acme', 'federated'), `${base}/a2`, events);
  endpoints.nb = await register(demoCtx('northbank', 'merchant.admin'), `${base}/nb`, events);
  endpoints.flaky = await register(mAdmin, `${flakyBase}/flaky`, ['ERT_RESOLVED']);
  await w.startWorker();
});
afterAll(async () => {
  await w?.close();
  await receiver.close();
  await flaky.close();
});

describe('CASE_STATUS_CHANGED', () => {
  it('is delivered signed to the endpoints of the merchant and of its partner, not to siblings', async () => {
    const id = await caseOf('acme', A1, 1);
    const r = await w.caseCall('PATCH', '/cm/cases/ui/status', manager, { cases: [{ id, status_id: 2 }] });
    expect(r.status, r.raw).toBe(200);
    const isCase = (d: Record<string, unknown>) => d.case_id === id;
    await eventually(async () => receivedAt(receiver, '/a1', isCase).length > 0);
    await eventually(async () => receivedAt(receiver, '/partner', isCase).length > 0);
    const [got] = receivedAt(receiver, '/a1', isCase);
    const payload = payloadOf(got!);
    expect(payload).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'CASE_STATUS_CHANGED',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      tenant: 'acme',
      merchant_id: A1,
      data: { case_id: id, previous_status: 'New', status: 'Working' },
    });
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['portal-event-id']).toBe(payload.id);
    const signature = String(got!.headers['portal-signature']);
    expect(verifies(endpoints.a1.secret, got!.body, signature)).toBe(true);
    expect(verifies(endpoints.partner.secret, got!.body, signature)).toBe(false);
    expect(verifies(endpoints.a1.secret, got!.body.replace('Working', 'New'), signature)).toBe(false);
    const t = Number(/t=(\d+)/.exec(signature)![1]);
    expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(60);
    const partnerCopy = receivedAt(receiver, '/partner', isCase)[0]!;
    expect(
      verifies(endpoints.partner.secret, partnerCopy.body, String(partnerCopy.headers['portal-signature'])),
    ).toBe(true);

    // Matched once per endpoint of A1 or above it: never A2 (a sibling) or another tenant.
    expect(await deliveredTo(payload.id)).toEqual(
      [endpoints.a1.id, endpoints.partner.id].sort((a, b) => a - b),
    );
    const seen = await eventually(async () => {
      const d = (await deliveriesOf(mAdmin, endpoints.a1.id)).find((x) => x.event_id === payload.id);
      return d?.state === 'succeeded' && d;
    });
    expect(seen).toMatchObject({
      event_type: 'CASE_STATUS_CHANGED',
      state: 'succeeded',
      response_code: 200,
      attempts: 1,
      last_error: null,
    });
  });

  it('is not emitted when the status does not change', async () => {
    const id = await caseOf('acme', A1, 2);
    const before = await dispatchJobs();
    const r = await w.caseCall('PATCH', '/cm/cases/ui/status', manager, { cases: [{ id, status_id: 2 }] });
    expect(r.status, r.raw).toBe(200);
    expect(await dispatchJobs()).toBe(before);
  });

  it('is not emitted when the write rolls back', async () => {
    const ok = await caseOf('acme', A1, 1);
    const closed = await caseOf('acme', A1, 5);
    const before = await dispatchJobs();
    // The first case changes (and emits) before the second one fails the whole write.
    const r = await w.caseCall('PATCH', '/cm/cases/ui/status', manager, {
      cases: [
        { id: ok, status_id: 2 },
        { id: closed, status_id: 2 },
      ],
    });
    expect(r.status).toBe(409);
    const row = await w.t.db.query<{ status_id: number }>('select status_id from cases.cases where id = $1', [
      ok,
    ]);
    expect(row.rows[0]!.status_id).toBe(1);
    await expect(
      w.t.db.transaction(async (tx) => {
        await emitEvent(tx, 'acme', { type: 'CASE_CREATED', merchant_id: A1, data: { case_id: ok } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await dispatchJobs()).toBe(before);
    expect(receivedAt(receiver, '/a1', (d) => d.case_id === ok)).toEqual([]);
  });

  it('stays in its tenant', async () => {
    const id = await caseOf(NB.id, demoMerchantId(NB, 'merchantA1'), 1);
    const r = await w.caseCall('PATCH', '/cm/cases/ui/status', demoCtx('northbank', 'manager'), {
      cases: [{ id, status_id: 2 }],
    });
    expect(r.status, r.raw).toBe(200);
    const isCase = (d: Record<string, unknown>) => d.case_id === id;
    const [got] = await eventually(async () => {
      const list = receivedAt(receiver, '/nb', isCase);
      return list.length > 0 && list;
    });
    const payload = payloadOf(got!);
    expect(payload).toMatchObject({ tenant: 'northbank', merchant_id: demoMerchantId(NB, 'merchantA1') });
    expect(verifies(endpoints.nb.secret, got!.body, got!.headers['portal-signature'])).toBe(true);
    // acme's endpoints of the same demo merchant keys never match northbank's events.
    expect(await deliveredTo(payload.id)).toEqual([endpoints.nb.id]);
    for (const path of ['/a1', '/partner', '/a2']) expect(receivedAt(receiver, path, isCase)).toEqual([]);
  });

  it('skips a disabled endpoint', async () => {
    const partner = demoCtx('acme', 'partner.admin');
    expect(
      (await w.userCall('PATCH', `/users/webhooks/${endpoints.partner.id}`, partner, { is_active: false }))
        .status,
    ).toBe(200);
    const id = await caseOf('acme', A1, 1);
    await w.caseCall('PATCH', '/cm/cases/ui/status', manager, { cases: [{ id, status_id: 2 }] });
    const [got] = await eventually(async () => {
      const list = receivedAt(receiver, '/a1', (d) => d.case_id === id);
      return list.length > 0 && list;
    });
    expect(await deliveredTo(payloadOf(got!).id)).toEqual([endpoints.a1.id]);
    await w.userCall('PATCH', `/users/webhooks/${endpoints.partner.id}`, partner, { is_active: true });
  });
});

describe('ALERT_STATUS_CHANGED and ERT_CREATED', () => {
  it('delivers an alert outcome and its completion, not a repeated identical outcome', async () => {
    const made = await w.t.db.query<{ id: string }>(
      `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
         trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
       select 'acme', $1, d.id, 2, 'ORD-W' || floor(random() * 1e6)::int, 19.99, 1, current_date - 2, 2, '510000', '2222',
         now() - interval '1 hour', now() + interval '71 hours'
       from cases.alert_descriptors d where d.merchant_id = $1 and d.mid_id is not null order by d.id limit 1
       returning id`,
      [A1],
    );
    const alertId = Number(made.rows[0]!.id);
    const marked = await w.caseCall('POST', '/cm/svc/alerts/outcome', mAdmin, {
      alert_id: alertId,
      outcome_id: 4,
    });
    expect(marked.status, marked.raw).toBe(200);
    const before = await dispatchJobs();
    await w.caseCall('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: alertId, outcome_id: 4 });
    expect(await dispatchJobs()).toBe(before);
    const done = await w.caseCall('POST', '/cm/svc/alerts/complete', mAdmin, { alert_id: alertId });
    expect(done.status, done.raw).toBe(200);

    const isAlert = (d: Record<string, unknown>) => d.alert_id === alertId;
    const got = await eventually(async () => {
      const list = receivedAt(receiver, '/a1', isAlert);
      return list.length >= 2 && list;
    });
    const payloads = got
      .map(payloadOf)
      .sort((a, b) => Number(!!a.data.completed_date) - Number(!!b.data.completed_date));
    expect(payloads.map((p) => p.type)).toEqual(['ALERT_STATUS_CHANGED', 'ALERT_STATUS_CHANGED']);
    expect(payloads[0].data).toMatchObject({ previous_outcome: null, completed_date: null });
    expect(payloads[1].data).toMatchObject({ status: 'Completed', completed_date: expect.any(String) });
    for (const r of got)
      expect(verifies(endpoints.a1.secret, r.body, r.headers['portal-signature'])).toBe(true);
    expect(receivedAt(receiver, '/partner', isAlert)).toEqual([]);
  });

  it('delivers ERT_CREATED for an ERT added through the route', async () => {
    const id = await caseOf('acme', A1, 2);
    const r = await w.caseCall('POST', `/ert/case/${id}/erts`, admin, { content: 'Webhook ERT' });
    expect(r.status, r.raw).toBe(200);
    const [got] = await eventually(async () => {
      const list = receivedAt(receiver, '/a1', (d) => d.ert_id === r.body.data.id);
      return list.length > 0 && list;
    });
    expect(payloadOf(got!)).toMatchObject({
      type: 'ERT_CREATED',
      merchant_id: A1,
      data: { ert_id: r.body.data.id, case_id: id, content: 'Webhook ERT' },
    });
  });
});

describe('retries and redelivery', () => {
  let ertId: number;
  let deliveryId: number;

  it('retries a 500 with backoff, showing the state, response code and attempts', async () => {
    const id = await caseOf('acme', A1, 2);
    ertId = (await w.caseCall('POST', `/ert/case/${id}/erts`, admin, { content: 'Flaky' })).body.data.id;
    flaky.answers = [500];
    expect((await w.caseCall('POST', `/ert/erts/${ertId}/resolve`, admin, {})).status).toBe(200);
    const failed = await eventually(async () => {
      const d = (await deliveriesOf(mAdmin, endpoints.flaky.id))[0];
      return d?.state === 'retrying' && d;
    });
    expect(failed).toMatchObject({
      event_type: 'ERT_RESOLVED',
      response_code: 500,
      attempts: 1,
      last_error: 'The endpoint answered 500.',
    });
    deliveryId = failed.id;
    // pg-boss holds the retry back: 15 s doubling (with jitter) per attempt, 12 retries (about a day).
    const job = await eventually(async () => {
      const { rows } = await w.t.db.query<{
        id: string;
        wait: number;
        retry_limit: number;
        retry_backoff: boolean;
      }>(
        `select j.id, extract(epoch from j.start_after - now())::float as wait, j.retry_limit, j.retry_backoff
           from pgboss.job j join jobs.job_status s on s.id = j.id
          where s.kind = 'webhooks.deliver' and s.singleton_key = $1 and j.state = 'retry'`,
        [`delivery-${deliveryId}`],
      );
      return rows[0];
    });
    expect(job.retry_limit).toBe(12);
    expect(job.retry_backoff).toBe(true);
    expect(job.wait).toBeGreaterThan(10);
    expect(job.wait).toBeLessThanOrEqual(30);

    // Let the retry run now instead of waiting for it.
    await w.t.db.query('update pgboss.job set start_after = now() where id = $1', [job.id]);
    const ok = await eventually(async () => {
      const d = (await deliveriesOf(mAdmin, endpoints.flaky.id))[0];
      return d?.state === 'succeeded' && d;
    });
    expect(ok).toMatchObject({ id: deliveryId, response_code: 200, attempts: 2, last_error: null });
    expect(flaky.received).toHaveLength(2);
    expect(flaky.received[0]!.body).toBe(flaky.received[1]!.body);
    for (const r of flaky.received)
      expect(verifies(endpoints.flaky.secret, r.body, r.headers['portal-signature'])).toBe(true);
  }, 60_000);

  it('redelivers on request, for this endpoint only, by its writers only', async () => {
    const url = `/users/webhooks/${endpoints.flaky.id}/deliveries/${deliveryId}/redeliver`;
    expect((await w.userCall('POST', url, demoCtx('acme', 'readonly'), {})).status).toBe(403);
    const foreign = await w.userCall(
      'POST',
      `/users/webhooks/${endpoints.a1.id}/deliveries/${deliveryId}/redeliver`,
      mAdmin,
      {},
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(M.deliveryNotFound);
    expect((await w.userCall('POST', url, demoCtx('acme', 'federated'), {})).status).toBe(404);

    const r = await w.userCall('POST', url, mAdmin, {});
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: M.redelivered });
    await flaky.waitFor(3);
    expect(JSON.parse(flaky.received[2]!.body).data).toMatchObject({ ert_id: ertId });
    const again = await eventually(async () => {
      const d = (await deliveriesOf(mAdmin, endpoints.flaky.id))[0];
      return d?.state === 'succeeded' && d.attempts === 3 && d;
    });
    expect(again).toMatchObject({ id: deliveryId, response_code: 200 });

    await w.userCall('PATCH', `/users/webhooks/${endpoints.flaky.id}`, mAdmin, { is_active: false });
    const disabled = await w.userCall('POST', url, mAdmin, {});
    expect(disabled.status).toBe(409);
    expect(flaky.received).toHaveLength(3);
  });
});

describe('test event', () => {
  it('sends a signed WEBHOOK_TEST on request, shown among the deliveries', async () => {
    const url = `/users/webhooks/${endpoints.a1.id}/test`;
    expect((await w.userCall('POST', url, demoCtx('acme', 'readonly'), {})).status).toBe(403);
    expect((await w.userCall('POST', url, demoCtx('acme', 'federated'), {})).status).toBe(404);
    const r = await w.userCall('POST', url, mAdmin, {});
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: M.testQueued });
    const [got] = await eventually(async () => {
      const list = receiver.received.filter((x) => x.path === '/a1' && payloadOf(x).type === 'WEBHOOK_TEST');
      return list.length > 0 && list;
    });
    expect(payloadOf(got!)).toMatchObject({
      tenant: 'acme',
      merchant_id: A1,
      data: { endpoint_id: endpoints.a1.id },
    });
    expect(verifies(endpoints.a1.secret, got!.body, got!.headers['portal-signature'])).toBe(true);
    const shown = await eventually(async () => {
      const d = (await deliveriesOf(mAdmin, endpoints.a1.id)).find((x) => x.event_id === payloadOf(got!).id);
      return d?.state === 'succeeded' && d;
    });
    expect(shown).toMatchObject({ event_type: 'WEBHOOK_TEST', response_code: 200, attempts: 1 });

    await w.userCall('PATCH', `/users/webhooks/${endpoints.a1.id}`, mAdmin, { is_active: false });
    expect((await w.userCall('POST', url, mAdmin, {})).status).toBe(409);
    await w.userCall('PATCH', `/users/webhooks/${endpoints.a1.id}`, mAdmin, { is_active: true });
  });
});
