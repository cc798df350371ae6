import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS, DEMO_TENANTS, demoMerchantId } from '@portal/contracts';
import { STRIPE_API_VERSION } from '../../../packages/connectors/src/index';
import { makePdf, uploadFile } from '../../support/representment-upload';
import { eventFixture, signEvent } from '../../support/stripe-stand-in';
import { eventually, startConnectorWorld, type ConnectorWorld } from './connector-world';

/**
 * Evidence out and the outcome back (issue 32): a representment uploaded for
 * a case a Stripe connection owns goes to Stripe through the SDK (Files API,
 * then the dispute's evidence with submit), exactly once even when the first
 * attempt fails, and the won dispute comes back as the verdict. Evidence
 * after the due date is refused before any call.
 */
let w: ConnectorWorld;
const A1 = demoMerchantId(DEMO_TENANTS[0]!, 'merchantA1');
const KEY = 'rk_test_51EvidenceRestricted01';
const SECRET = 'whsec_EvidenceSigningSecret01';
let connection = '';
const DAY = 86_400;

async function webhook(type: string, dispute: Parameters<typeof eventFixture>[1], at?: number) {
  const raw = JSON.stringify(eventFixture(type, dispute, at));
  const r = await w.call('POST', `/connectors/stripe/${connection}/events`, {
    raw,
    headers: { 'stripe-signature': signEvent(raw, SECRET) },
  });
  expect(r.status, r.raw).toBe(200);
  return r.body as { outcome: string; case_id: number };
}

async function upload(caseId: number, comment: string) {
  const token = await w.token('merchant.admin');
  const pdf = await makePdf(2);
  const key = await uploadFile(w.gatewayUrl, 'acme', token, caseId, pdf, 'evidence.pdf', 'application/pdf');
  const r = await w.call('POST', '/docs/representment', {
    user: 'merchant.admin',
    body: {
      case_id: caseId,
      origin: 2,
      files: [
        {
          s3_key: key,
          filename: 'evidence.pdf',
          content_type: 'application/pdf',
          size: pdf.length,
          order_num: 0,
        },
      ],
      templates: [],
      qc_review: false,
      is_reupload: false,
      comment,
    },
  });
  expect(r.status, r.raw).toBe(200);
}

const statusOf = async (caseId: number) =>
  (await w.t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [caseId]))
    .rows[0]!.status_id;
const history = async (caseId: number) =>
  (
    await w.t.db.query<{ action: string }>(
      `select action from cases.case_history where case_id = $1 order by id`,
      [caseId],
    )
  ).rows.map((r) => r.action);

beforeAll(async () => {
  w = await startConnectorWorld();
  w.stripe.addKey(KEY, { id: 'acct_evidence', name: 'Blue Sky Outfitters' });
  const mid = (
    await w.t.db.query<{ id: number }>(
      `select id::int as id from cases.mids where merchant_id = $1 order by id limit 1`,
      [A1],
    )
  ).rows[0]!.id;
  const r = await w.call('POST', `/cm/merchants/${A1}/connections`, {
    user: 'merchant.admin',
    body: { processor: 'stripe', api_key: KEY, mid_ids: [mid] },
  });
  expect(r.status, r.raw).toBe(201);
  connection = r.body.id;
  expect(r.body.has_webhook_secret).toBe(false);
  // The backfill (nothing on the account yet) is done before the disputes of the tests appear.
  await eventually(async () => {
    const list = await w.call('GET', `/cm/merchants/${A1}/connections`, { user: 'merchant.admin' });
    return list.body.data[0].backfill?.status === 'done';
  });
}, 120_000);
afterAll(async () => {
  await w?.close();
});

describe('the signing secret, given once the endpoint exists', () => {
  it('refuses events until the secret is set, then accepts them', async () => {
    const d = w.stripe.addDispute({ id: 'dp_beforesecret' });
    const raw = JSON.stringify(eventFixture('charge.dispute.created', d));
    const early = await w.call('POST', `/connectors/stripe/${connection}/events`, {
      raw,
      headers: { 'stripe-signature': signEvent(raw, SECRET) },
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(
      'This connection has no webhook signing secret yet: add it on the merchant’s settings.',
    );
    const path = `/cm/merchants/${A1}/connections/${connection}/webhook-secret`;
    expect(
      (await w.call('PUT', path, { user: 'merchant.user', body: { webhook_secret: SECRET } })).status,
    ).toBe(403);
    expect(
      (await w.call('PUT', path, { user: 'merchant.admin', body: { webhook_secret: 'nope' } })).status,
    ).toBe(400);
    const put = await w.call('PUT', path, { user: 'merchant.admin', body: { webhook_secret: SECRET } });
    expect(put.status, put.raw).toBe(200);
    expect(put.body.message).toBe('Webhook signing secret saved. Stripe’s events are now accepted.');
    expect((await webhook('charge.dispute.created', d)).outcome).toBe('created');
  });
});

describe('evidence out', () => {
  it(
    'reaches Stripe exactly once through the SDK although the first attempt fails, and the outcome comes back',
    { timeout: 120_000 },
    async () => {
      const dispute = w.stripe.addDispute({
        id: 'dp_evidence0001',
        reason: 'product_not_received',
        amount: 8900,
      });
      const { case_id: caseId } = await webhook('charge.dispute.created', dispute);
      // The evidence update fails three times (the SDK's own two retries included): the transport job's
      // first attempt fails; its retry sends the same idempotency keys, so the file is not stored twice.
      w.stripe.failNext('POST', /^\/v1\/disputes\/dp_evidence0001$/, 500, 500, 500);
      await upload(caseId, 'Delivered on 3 Nov, signed for by the cardholder.');
      await eventually(async () => (await statusOf(caseId)) === CASE_STATUS.TransportCompleted, 90_000);

      expect(w.stripe.files).toHaveLength(1);
      const files = w.stripe.requestsTo('POST', /^\/v1\/files$/);
      expect(files.length).toBeGreaterThanOrEqual(2);
      expect(new Set(files.map((f) => f.idempotencyKey)).size).toBe(1);
      expect(files.map((f) => f.status)).toEqual([200, ...files.slice(1).map(() => 200)]);
      expect(files[0]!.file).toMatchObject({ purpose: 'dispute_evidence', type: 'application/pdf' });
      expect(files[0]!.file!.size).toBeGreaterThan(500);
      const updates = w.stripe.requestsTo('POST', /^\/v1\/disputes\/dp_evidence0001$/);
      expect(updates.map((u) => u.status)).toEqual([500, 500, 500, 200]);
      expect(new Set(updates.map((u) => u.idempotencyKey)).size).toBe(1);
      for (const u of [...files, ...updates]) {
        expect(u.stripeVersion).toBe(STRIPE_API_VERSION);
        expect(u.apiKey).toBe(KEY);
      }
      expect(updates[3]!.form).toEqual({
        'evidence[uncategorized_text]': 'Delivered on 3 Nov, signed for by the cardholder.',
        'evidence[uncategorized_file]': w.stripe.files[0]!.id,
        submit: 'true',
      });
      const submitted = w.stripe.disputes.get('dp_evidence0001')!;
      expect(submitted.status).toBe('under_review');
      expect(submitted.evidence_details.submission_count).toBe(1);
      expect((await history(caseId)).join('\n')).toContain(
        `Representment delivered to the card network (stripe dp_evidence0001/${w.stripe.files[0]!.id})`,
      );

      // Stripe reviews, then the dispute is won: the verdict and the recovered amount come back.
      const now = Math.floor(Date.now() / 1000);
      expect((await webhook('charge.dispute.updated', submitted, now - 2)).outcome).toBe('updated');
      expect((await webhook('charge.dispute.closed', { ...submitted, status: 'won' }, now - 1)).outcome).toBe(
        'updated',
      );
      const c = (
        await w.t.db.query(
          `select c.verdict_id, c.status_id, d.recovered_amt::float as recovered from cases.cases c
           join cases.connector_disputes d on d.case_id = c.id where c.id = $1`,
          [caseId],
        )
      ).rows[0];
      expect(c).toEqual({ verdict_id: 4, status_id: CASE_STATUS.TransportCompleted, recovered: 89 });
    },
  );

  it(
    'refuses evidence after the due date before any call to Stripe, and says why on the case',
    { timeout: 90_000 },
    async () => {
      const now = Math.floor(Date.now() / 1000);
      const dispute = w.stripe.addDispute({
        id: 'dp_latedue0001',
        created: now - 30 * DAY,
        dueBy: now - 9 * DAY,
      });
      const { case_id: caseId } = await webhook('charge.dispute.created', dispute);
      const before = w.stripe.requests.length;
      await upload(caseId, 'Too late.');
      await eventually(
        async () => (await history(caseId)).some((h) => h.startsWith('Representment not delivered')),
        60_000,
      );
      const due = new Date((now - 9 * DAY) * 1000).toISOString().slice(0, 10);
      expect(await history(caseId)).toContain(
        `Representment not delivered: The response was due on ${due}: Stripe no longer accepts evidence for this dispute, so nothing was sent.`,
      );
      expect(await statusOf(caseId)).toBe(CASE_STATUS.Working);
      expect(w.stripe.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    },
  );
});
