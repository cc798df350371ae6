import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANTS, demoMerchantId } from '@portal/contracts';
import { EVENT_DISPATCH_QUEUE, PGBOSS_SCHEMA } from '@portal/jobs';
import { connectorSecretBox, STRIPE_API_VERSION } from '../../../packages/connectors/src/index';
import { eventFixture, signEvent } from '../../support/stripe-stand-in';
import { eventually, startConnectorWorld, type ConnectorWorld } from './connector-world';

/**
 * The Stripe connector end to end through the gateway, the official SDK and a
 * Stripe stand-in (issue 32): connect (the key proved by one read call, sealed
 * at rest, shown by its last four), signed webhooks into cases through the
 * feed's path (CASE_CREATED), replays and bad signatures refused, outcomes
 * back, the backfill paging past a 429, disconnect.
 */
let w: ConnectorWorld;
const ACME = DEMO_TENANTS[0]!;
const A1 = demoMerchantId(ACME, 'merchantA1');
const B1 = demoMerchantId(ACME, 'merchantB1');
const KEY = 'rk_test_51BlueSkyRestricted0001';
const SECRET = 'whsec_BlueSkySigningSecret0001';
let mids: number[] = [];
let connection = '';

const events = async (type: string) =>
  (
    await w.t.db.query<{
      data: { input: { events: Array<{ type: string; data: Record<string, unknown> }> } };
    }>(`select data from ${PGBOSS_SCHEMA}.job where name = $1`, [EVENT_DISPATCH_QUEUE])
  ).rows
    .flatMap((r) => r.data.input.events)
    .filter((e) => e.type === type);
const caseOf = async (disputeId: string) =>
  (
    await w.t.db.query<{ id: number } & Record<string, unknown>>(
      `select c.id::int as id, c.mid_id::int as mid_id, c.source_id, c.case_no, c.cycle_id, r.code as reason_code,
              t.alias as brand, c.dispute_amt::float as amount, cur.code as currency, to_char(c.date_due, 'YYYY-MM-DD') as due,
              c.cc_last_four, c.status_id, c.verdict_id, d.stage, d.is_charge_refundable, d.recovered_amt::float as recovered,
              d.lost_amt::float as lost
         from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id join cases.card_types t on t.id = c.card_type_id
         join cases.currencies cur on cur.id = c.dispute_currency_id
         left join cases.connector_disputes d on d.case_id = c.id
        where c.tenant_id = 'acme' and c.source_ref = $1`,
      [disputeId],
    )
  ).rows;
const post = (
  type: string,
  dispute: Parameters<typeof eventFixture>[1],
  opts: { secret?: string; at?: number } = {},
) => {
  const event = eventFixture(type, dispute, opts.at);
  const raw = JSON.stringify(event, null, 2);
  return {
    event,
    send: (path = `/connectors/stripe/${connection}/events`, host = 'acme.localhost') =>
      w.call('POST', path, {
        host,
        raw,
        headers: { 'stripe-signature': signEvent(raw, opts.secret ?? SECRET, opts.at) },
      }),
  };
};

beforeAll(async () => {
  w = await startConnectorWorld();
  w.stripe.addKey(KEY, { name: 'Blue Sky Outfitters', id: 'acct_bluesky' });
  mids = (
    await w.t.db.query<{ id: number }>(
      `select id::int as id from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 2`,
      [A1],
    )
  ).rows.map((r) => r.id);
  // Disputes already on the account: 104 within 120 days (two pages of the backfill), one older.
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < 104; i++)
    w.stripe.addDispute({
      id: `dp_backfill${String(i).padStart(4, '0')}`,
      created: now - 86_400 * (1 + (i % 90)),
    });
  w.stripe.addDispute({ id: 'dp_tooold0001', created: now - 86_400 * 130 });
  w.stripe.addDispute({ id: 'dp_wonbefore01', status: 'won', reason: 'product_not_received', amount: 2500 });
  // The backfill's first page is refused once for the rate limit: the SDK backs off and asks again.
  w.stripe.failNext('GET', /^\/v1\/disputes\?.*limit=100/, 429);
}, 120_000);
afterAll(async () => {
  await w?.close();
});

describe('connect', () => {
  it('refuses other roles, read-only users, foreign merchants and MIDs, and a key Stripe refuses', async () => {
    const body = { processor: 'stripe', api_key: KEY, webhook_secret: SECRET, mid_ids: mids.slice(0, 1) };
    const path = `/cm/merchants/${A1}/connections`;
    expect((await w.call('POST', path, { user: 'merchant.user', body })).status).toBe(403);
    expect((await w.call('POST', path, { user: 'partner.admin', body })).status).toBe(403);
    expect((await w.call('POST', path, { user: 'readonly', body })).status).toBe(403);
    expect(
      (await w.call('POST', `/cm/merchants/${B1}/connections`, { user: 'merchant.admin', body })).status,
    ).toBe(404);
    const foreignMid = (
      await w.t.db.query<{ id: number }>(
        `select id::int as id from cases.mids where tenant_id = 'acme' and merchant_id <> $1 limit 1`,
        [A1],
      )
    ).rows[0]!.id;
    const wrongMid = await w.call('POST', path, {
      user: 'merchant.admin',
      body: { ...body, mid_ids: [foreignMid] },
    });
    expect(wrongMid.status, wrongMid.raw).toBe(400);
    expect(wrongMid.body.message).toBe('Every MID must belong to this merchant.');
    const badKey = await w.call('POST', path, {
      user: 'merchant.admin',
      body: { ...body, api_key: 'rk_test_NotAKeyStripeKnows01' },
    });
    expect(badKey.status, badKey.raw).toBe(400);
    expect(badKey.body.message).toBe(
      'Stripe did not accept the API key: it may have been revoked or mistyped.',
    );
    expect(
      (
        await w.call('POST', path, {
          user: 'merchant.admin',
          body: { ...body, api_key: 'pk_test_publishable0001' },
        })
      ).status,
    ).toBe(400);
    const none = await w.t.db.query(`select 1 from cases.connections`);
    expect(none.rows).toHaveLength(0);
  });

  it('proves the key with one read call, seals the secrets and shows only the last four', async () => {
    const before = w.stripe.requests.length;
    const r = await w.call('POST', `/cm/merchants/${A1}/connections`, {
      user: 'merchant.admin',
      body: { processor: 'stripe', api_key: KEY, webhook_secret: SECRET, mid_ids: mids },
    });
    expect(r.status, r.raw).toBe(201);
    connection = r.body.id;
    expect(r.body).toMatchObject({
      processor: 'stripe',
      merchant_id: A1,
      account_id: 'acct_bluesky',
      account_name: 'Blue Sky Outfitters',
      api_key_last4: '0001',
      webhook_path: `/api/connectors/stripe/${connection}/events`,
      mids: mids.map((id) => ({ id, mid: expect.any(String) })),
    });
    expect(r.raw).not.toContain(KEY);
    expect(r.raw).not.toContain(SECRET);
    // The SDK's calls: read only, the pinned API version, the connection's key.
    const calls = w.stripe.requests.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/disputes', 'GET /v1/account']);
    for (const c of calls) {
      expect(c.stripeVersion).toBe(STRIPE_API_VERSION);
      expect(c.apiKey).toBe(KEY);
    }
    expect(calls[0]!.query).toEqual({ limit: '1' });
    // At rest: sealed, not readable, bound to this connection.
    const row = (
      await w.t.db.query<{ api_key_sealed: string; webhook_secret_sealed: string }>(
        `select api_key_sealed, webhook_secret_sealed from cases.connections where id = $1`,
        [connection],
      )
    ).rows[0]!;
    expect(JSON.stringify(row)).not.toContain('BlueSky');
    const box = connectorSecretBox(w.t.env);
    expect(box.open(row.api_key_sealed, `acme:${connection}:api_key`)).toBe(KEY);
    expect(() => box.open(row.api_key_sealed, `acme:${connection}:webhook_secret`)).toThrow();
    // The same account again is refused.
    const again = await w.call('POST', `/cm/merchants/${A1}/connections`, {
      user: 'admin',
      body: { processor: 'stripe', api_key: KEY, webhook_secret: SECRET, mid_ids: mids },
    });
    expect(again.status, again.raw).toBe(409);
    // The list shows it to the merchant's admin and to provider staff, never to a merchant user.
    const list = await w.call('GET', `/cm/merchants/${A1}/connections`, { user: 'manager' });
    expect(list.status, list.raw).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([connection]);
    expect(list.raw).not.toContain('sealed');
    expect((await w.call('GET', `/cm/merchants/${A1}/connections`, { user: 'merchant.user' })).status).toBe(
      403,
    );
    // Audited by the gateway, with the route pattern.
    await eventually(async () => {
      const { rows } = await w.t.db.query(
        `select 1 from users.audit_log where tenant = 'acme' and method = 'POST' and route like '%/connections'`,
      );
      return rows.length > 0;
    });
  });

  it('backfills the last 120 days page by page, past a 429', { timeout: 90_000 }, async () => {
    let last: unknown;
    await eventually(async () => {
      const r = await w.call('GET', `/cm/merchants/${A1}/connections`, { user: 'merchant.admin' });
      last = r.body.data[0].backfill;
      return r.body.data[0].backfill?.status === 'done';
    }, 60_000).catch((error: unknown) => {
      throw new Error(
        `backfill not done: ${JSON.stringify(last)}; stand-in saw ${JSON.stringify(w.stripe.requests.slice(-5))}`,
        { cause: error },
      );
    });
    const lists = w.stripe.requestsTo('GET', /^\/v1\/disputes$/).filter((r) => r.query.limit === '100');
    expect(lists.map((r) => r.status)).toEqual([429, 200, 200]);
    expect(lists[0]!.query).toEqual(lists[1]!.query);
    // The second page starts after the 100th dispute of the first (newest first, as Stripe lists).
    expect(lists[1]!.query.starting_after).toBeUndefined();
    expect(lists[2]!.query.starting_after).toMatch(/^dp_backfill\d{4}$/);
    expect(lists[1]!.query['expand[0]']).toBe('data.charge');
    const { rows } = await w.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.connector_disputes where connection_id = $1`,
      [connection],
    );
    expect(rows[0]!.n).toBe(105);
    expect(await caseOf('dp_tooold0001')).toHaveLength(0);
    // A dispute already won when it arrives: the verdict and the money at once.
    expect((await caseOf('dp_wonbefore01'))[0]).toMatchObject({ verdict_id: 4, recovered: 25, stage: 'won' });
  });
});

describe('disputes in, outcomes back', () => {
  it('creates the case from a signed charge.dispute.created through the feed path, once', async () => {
    const dispute = w.stripe.addDispute({
      id: 'dp_webhook0001',
      amount: 12_345,
      currency: 'eur',
      reason: 'product_not_received',
      brand: 'mastercard',
      last4: '5454',
      networkReasonCode: '4855',
      isChargeRefundable: true,
      dueBy: Math.floor(Date.UTC(2027, 0, 15, 23, 59) / 1000),
    });
    const created = post('charge.dispute.created', dispute);
    const r = await created.send();
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toMatchObject({ received: true, outcome: 'created', case_id: expect.any(Number) });
    const c = (await caseOf('dp_webhook0001'))[0]!;
    expect(c).toMatchObject({
      id: r.body.case_id,
      mid_id: mids[0],
      source_id: 5,
      case_no: 'dp_webhook0001',
      cycle_id: 1,
      reason_code: '4855',
      brand: 'mastercard',
      amount: 123.45,
      currency: 'EUR',
      due: '2027-01-15',
      cc_last_four: '5454',
      status_id: 1,
      verdict_id: 3,
      stage: 'open',
      is_charge_refundable: true,
    });
    expect((await events('CASE_CREATED')).filter((e) => e.data.case_id === c.id)).toHaveLength(1);
    // The same event again (Stripe resends, or someone replays it): nothing changes.
    const replay = await created.send();
    expect(replay.status, replay.raw).toBe(200);
    expect(replay.body).toMatchObject({ outcome: 'duplicate' });
    expect(await caseOf('dp_webhook0001')).toHaveLength(1);
    expect((await events('CASE_CREATED')).filter((e) => e.data.case_id === c.id)).toHaveLength(1);
  });

  it('refuses unsigned, wrongly signed, stale, tampered and foreign-tenant events, changing nothing', async () => {
    const dispute = w.stripe.addDispute({ id: 'dp_refused0001' });
    const event = eventFixture('charge.dispute.created', dispute);
    const raw = JSON.stringify(event);
    const path = `/connectors/stripe/${connection}/events`;
    const send = (headers: Record<string, string>, body = raw, host = 'acme.localhost') =>
      w.call('POST', path, { host, raw: body, headers });
    const unsigned = await send({});
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.message).toBe('The event is not signed (no Stripe-Signature header).');
    const wrong = await send({ 'stripe-signature': signEvent(raw, 'whsec_SomeoneElsesSecret01') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('The event’s signature does not match the connection’s signing secret.');
    const stale = await send({
      'stripe-signature': signEvent(raw, SECRET, Math.floor(Date.now() / 1000) - 600),
    });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe('The event’s signature is too old (more than 5 minutes).');
    const tampered = await send({ 'stripe-signature': signEvent(raw, SECRET) }, raw.replace('4999', '9999'));
    expect(tampered.status).toBe(400);
    // The connection belongs to acme: on northbank's host it does not exist.
    const foreign = await send({ 'stripe-signature': signEvent(raw, SECRET) }, raw, 'northbank.localhost');
    expect(foreign.status).toBe(404);
    expect(
      (await w.call('POST', `/connectors/stripe/${crypto.randomUUID()}/events`, { raw, headers: {} })).status,
    ).toBe(404);
    expect(await caseOf('dp_refused0001')).toHaveLength(0);
    const { rows } = await w.t.db.query(`select 1 from cases.connector_events where event_id = $1`, [
      event.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('sets the verdict and the money when the dispute is won or lost; a late older event changes nothing', async () => {
    const dispute = w.stripe.addDispute({ id: 'dp_outcome0001', amount: 4999, reason: 'fraudulent' });
    const t0 = Math.floor(Date.now() / 1000) - 120;
    expect((await post('charge.dispute.created', dispute, { at: t0 }).send()).body.outcome).toBe('created');
    const open = (await caseOf('dp_outcome0001'))[0]!;
    expect(open).toMatchObject({ reason_code: '10.4', brand: 'visa', cc_last_four: '4242', status_id: 1 });

    const closed = { ...dispute, status: 'won' as const };
    const r = await post('charge.dispute.closed', closed, { at: t0 + 60 }).send();
    expect(r.body).toMatchObject({ outcome: 'updated', case_id: open.id });
    expect((await caseOf('dp_outcome0001'))[0]).toMatchObject({
      verdict_id: 4,
      status_id: 10,
      stage: 'won',
      recovered: 49.99,
      lost: null,
    });
    const verdicts = (await events('CASE_VERDICT_CHANGED')).filter((e) => e.data.case_id === open.id);
    expect(verdicts.map((e) => e.data)).toEqual([
      { case_id: open.id, previous_verdict: 'Verdict Pending', verdict: 'Win' },
    ]);
    // An update from before the close, delivered late, does not reopen anything.
    const late = await post(
      'charge.dispute.updated',
      { ...dispute, status: 'under_review' },
      { at: t0 + 30 },
    ).send();
    expect(late.body).toMatchObject({ outcome: 'unchanged' });
    expect((await caseOf('dp_outcome0001'))[0]).toMatchObject({ verdict_id: 4, stage: 'won' });

    const lostOne = w.stripe.addDispute({ id: 'dp_outcome0002', amount: 1000 });
    await post('charge.dispute.created', lostOne, { at: t0 }).send();
    await post('charge.dispute.closed', { ...lostOne, status: 'lost' }, { at: t0 + 60 }).send();
    // Never answered and lost: the case expired, the amount lost.
    expect((await caseOf('dp_outcome0002'))[0]).toMatchObject({ verdict_id: 5, status_id: 5, lost: 10 });
    const history = await w.t.db.query<{ action: string; username: string }>(
      `select action, username from cases.case_history where case_id = $1 order by id`,
      [(await caseOf('dp_outcome0002'))[0]!.id],
    );
    expect(history.rows.map((h) => h.action)).toContain('Stripe: dispute lost, 10.00 USD lost');
  });
});

describe('disconnect', () => {
  it('deletes the sealed keys; events for it are refused; the cases stay', async () => {
    expect(
      (await w.call('DELETE', `/cm/merchants/${A1}/connections/${connection}`, { user: 'merchant.user' }))
        .status,
    ).toBe(403);
    const r = await w.call('DELETE', `/cm/merchants/${A1}/connections/${connection}`, {
      user: 'merchant.admin',
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.message).toBe('Stripe account disconnected. Its keys were deleted.');
    expect(
      (await w.t.db.query(`select 1 from cases.connections where id = $1`, [connection])).rows,
    ).toHaveLength(0);
    const d = w.stripe.addDispute({ id: 'dp_afterdisconnect' });
    expect((await post('charge.dispute.created', d).send()).status).toBe(404);
    expect(await caseOf('dp_webhook0001')).toHaveLength(1);
  });
});
