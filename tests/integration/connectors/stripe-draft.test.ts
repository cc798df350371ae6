import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS, DEMO_TENANTS, demoMerchantId } from '@portal/contracts';
import { makePdf, postForm, uploadFile, type UploadLink } from '../../support/representment-upload';
import { eventFixture, signEvent } from '../../support/stripe-stand-in';
import { eventually, startConnectorWorld, type ConnectorWorld } from './connector-world';

/**
 * Builder answers into Stripe's evidence fields, save as draft, and the
 * case's 'Stripe submission' panel (issue 32): the SDK against the stand-in,
 * which records the form-encoded parameters of every request. A draft sends
 * `submit=false` and leaves the case Working; submitting the draft sends
 * `submit=true` under new idempotency keys; Stripe's refusals come back to
 * the panel in a merchant's words with Stripe's code; a 429 and a 500 are
 * retried with the same key, so the evidence reaches Stripe once.
 */
let w: ConnectorWorld;
const A1 = demoMerchantId(DEMO_TENANTS[0]!, 'merchantA1');
const KEY = 'rk_test_51DraftRestrictedKey01';
const SECRET = 'whsec_DraftSigningSecret0001';
let connection = '';
let midId = 0;

async function webhook(dispute: Parameters<typeof eventFixture>[1]) {
  const raw = JSON.stringify(eventFixture('charge.dispute.created', dispute));
  const r = await w.call('POST', `/connectors/stripe/${connection}/events`, {
    raw,
    headers: { 'stripe-signature': signEvent(raw, SECRET) },
  });
  expect(r.status, r.raw).toBe(200);
  return (r.body as { case_id: number }).case_id;
}

async function upload(caseId: number, comment: string, saveAsDraft: boolean) {
  const token = await w.token('merchant.admin');
  const pdf = await makePdf(2);
  const key = await uploadFile(w.gatewayUrl, 'acme', token, caseId, pdf, 'evidence.pdf', 'application/pdf');
  return w.call('POST', '/docs/representment', {
    user: 'merchant.admin',
    body: {
      case_id: caseId,
      origin: 2,
      files: [{ s3_key: key, filename: 'evidence.pdf', content_type: 'application/pdf', size: pdf.length }],
      templates: [],
      qc_review: false,
      is_reupload: false,
      comment,
      ...(saveAsDraft ? { save_as_draft: true } : {}),
    },
  });
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
const panel = async (caseId: number, user = 'merchant.user') => {
  const r = await w.call('GET', `/docs/representment/${caseId}/processor-submission`, { user });
  expect(r.status, r.raw).toBe(200);
  return r.body;
};

/** The builder's two pages saved through the builder service, as the merchant's admin would. */
async function answerBuilder(caseId: number) {
  const products = await w.call('GET', `/builder/products?mid_id=${midId}&limit=999`, {
    user: 'merchant.admin',
  });
  expect(products.status, products.raw).toBe(200);
  const product = products.body.data.find((p: { type: { id: number } }) => p.type.id === 1);
  expect(product, 'a physical product of the merchant').toBeTruthy();
  const page1 = await w.call('PUT', `/builder/case/${caseId}`, {
    user: 'merchant.admin',
    body: {
      page: 1,
      product_id: product.id,
      sale_type: 1,
      is_shippable: true,
      is_service: false,
      is_subscription: false,
      type_id: 1,
      fields: [
        { id: 11, value: 'Jane' },
        { id: 12, value: 'Doe' },
        { id: 10, value: 'jane@example.com' },
        { id: 61, value: '1 Main St' },
        { id: 62, value: 'Springfield' },
        { id: 65, value: '1' },
        { id: 14, value: 'ORD-7731' },
        { id: 51, value: '2026-01-15' },
        { id: 53, value: '89.00' },
        { id: 9, value: 'Customer confirmed delivery by phone.' },
      ],
    },
  });
  expect(page1.status, page1.raw).toBe(200);
  const page2 = await w.call('PUT', `/builder/case/${caseId}`, {
    user: 'merchant.admin',
    body: {
      page: 2,
      fields: [
        { id: 70, value: '1 Main St' },
        { id: 71, value: 'Springfield' },
        { id: 73, value: '12345' },
        { id: 117, value: '2' },
        { id: 74, value: 'UPS' },
        { id: 75, value: '1Z999AA10123456784' },
        { id: 76, value: '2026-01-16' },
        { id: 110, value: 'Trail running shoes, size 42, blue.' },
        { id: 112, value: 'Returns within 30 days, shown at checkout with a tick box.' },
        { id: 80, value: '203.0.113.7' },
      ],
    },
  });
  expect(page2.status, page2.raw).toBe(200);
}

beforeAll(async () => {
  w = await startConnectorWorld();
  w.stripe.addKey(KEY, { id: 'acct_draft', name: 'Blue Sky Outfitters' });
  midId = (
    await w.t.db.query<{ id: number }>(
      `select id::int as id from cases.mids where merchant_id = $1 order by id limit 1`,
      [A1],
    )
  ).rows[0]!.id;
  const r = await w.call('POST', `/cm/merchants/${A1}/connections`, {
    user: 'merchant.admin',
    body: { processor: 'stripe', api_key: KEY, webhook_secret: SECRET, mid_ids: [midId] },
  });
  expect(r.status, r.raw).toBe(201);
  connection = r.body.id;
  await eventually(async () => {
    const list = await w.call('GET', `/cm/merchants/${A1}/connections`, { user: 'merchant.admin' });
    return list.body.data[0].backfill?.status === 'done';
  });
}, 120_000);
afterAll(async () => {
  await w?.close();
});

describe('builder answers, save as draft, then submit', () => {
  it(
    'stages the builder answers at Stripe with submit=false, then submits them with submit=true',
    { timeout: 150_000 },
    async () => {
      const dispute = w.stripe.addDispute({
        id: 'dp_draft0001',
        reason: 'product_not_received',
        amount: 8900,
      });
      const caseId = await webhook(dispute);
      expect((await panel(caseId)).state).toBe('none');
      await answerBuilder(caseId);

      // A 429 then a 500 on the evidence update: waited out and retried with the same key, sent once.
      w.stripe.failNext('POST', /^\/v1\/disputes\/dp_draft0001$/, 429, 500);
      const saved = await upload(caseId, 'Signed for at the door.', true);
      expect(saved.status, saved.raw).toBe(200);
      expect(saved.body.message).toBe('Evidence is being saved as a draft at Stripe (not submitted).');
      await eventually(
        async () => (await history(caseId)).some((h) => h.startsWith('Evidence saved as a draft at Stripe')),
        90_000,
      );
      // The attempt is recorded as the call returns; the case moves on when the job completes, just after.
      await eventually(async () => (await statusOf(caseId)) === CASE_STATUS.Working, 30_000);
      const updates = w.stripe.requestsTo('POST', /^\/v1\/disputes\/dp_draft0001$/);
      expect(updates.map((u) => u.status)).toEqual([429, 500, 200]);
      expect(new Set(updates.map((u) => u.idempotencyKey)).size).toBe(1);
      const fileId = updates[2]!.form['evidence[uncategorized_file]'];
      expect(w.stripe.files.map((f) => f.id)).toEqual([fileId]);
      expect(updates[2]!.form).toEqual({
        'evidence[customer_name]': 'Jane Doe',
        'evidence[customer_email_address]': 'jane@example.com',
        'evidence[customer_purchase_ip]': '203.0.113.7',
        'evidence[billing_address]': '1 Main St, Springfield, United States',
        'evidence[shipping_address]': '1 Main St, Springfield, 12345, Canada',
        'evidence[shipping_carrier]': 'UPS',
        'evidence[shipping_tracking_number]': '1Z999AA10123456784',
        'evidence[shipping_date]': '2026-01-16',
        'evidence[product_description]': 'Trail running shoes, size 42, blue.',
        'evidence[refund_policy_disclosure]': 'Returns within 30 days, shown at checkout with a tick box.',
        'evidence[access_activity_log]': 'IP address: 203.0.113.7',
        'evidence[uncategorized_text]':
          'Signed for at the door.\n\nOrder ID: ORD-7731\n\nCustomer service notes: Customer confirmed delivery by phone.',
        'evidence[uncategorized_file]': fileId,
        submit: 'false',
      });
      const staged = w.stripe.disputes.get('dp_draft0001')!;
      expect(staged.status).toBe('needs_response');
      expect(staged.evidence.shipping_tracking_number).toBe('1Z999AA10123456784');

      const draft = await panel(caseId);
      expect(draft).toMatchObject({
        connected: true,
        processor: 'stripe',
        connection_id: connection,
        dispute_id: 'dp_draft0001',
        state: 'draft',
        can_submit_draft: true,
      });
      expect(draft.last).toMatchObject({ mode: 'draft', state: 'sent', file_id: fileId, error: null });
      expect(draft.last.fields).toContain('shipping_tracking_number');
      expect(JSON.stringify(draft)).not.toContain(KEY);

      // merchant.user may read the panel but the read-only user may not submit; the admin submits.
      expect(
        (await w.call('POST', `/docs/representment/${caseId}/processor-submit`, { user: 'readonly' })).status,
      ).toBe(403);
      const submit = await w.call('POST', `/docs/representment/${caseId}/processor-submit`, {
        user: 'merchant.admin',
      });
      expect(submit.status, submit.raw).toBe(200);
      expect(submit.body.message).toBe('The draft is being submitted to Stripe.');
      await eventually(async () => (await statusOf(caseId)) === CASE_STATUS.TransportCompleted, 90_000);
      const all = w.stripe.requestsTo('POST', /^\/v1\/disputes\/dp_draft0001$/);
      expect(all).toHaveLength(4);
      expect(all[3]!.form.submit).toBe('true');
      expect(all[3]!.idempotencyKey).not.toBe(all[2]!.idempotencyKey);
      expect(all[3]!.form['evidence[shipping_tracking_number]']).toBe('1Z999AA10123456784');
      expect(w.stripe.disputes.get('dp_draft0001')!.status).toBe('under_review');
      const done = await panel(caseId);
      expect(done).toMatchObject({ state: 'submitted', can_submit_draft: false });
      expect(done.last).toMatchObject({ mode: 'submit', state: 'sent', error: null });
      // Nothing more to submit.
      const again = await w.call('POST', `/docs/representment/${caseId}/processor-submit`, {
        user: 'merchant.admin',
      });
      expect(again.status).toBe(409);
    },
  );

  it(
    'the case builder’s last step saves a draft too (POST /docs/builder/upload)',
    { timeout: 120_000 },
    async () => {
      const caseId = await webhook(
        w.stripe.addDispute({ id: 'dp_builderdraft1', reason: 'product_not_received', amount: 5100 }),
      );
      await answerBuilder(caseId);
      const docs = [];
      for (const [type, order] of [
        [1, 0],
        [2, 1],
      ] as const) {
        const pdf = await makePdf(1);
        const link = await w.call(
          'GET',
          `/docs/builder/upload-link?case_id=${caseId}&filename=doc-${order}.pdf&content_type=application/pdf`,
          { user: 'merchant.admin' },
        );
        expect(link.status, link.raw).toBe(200);
        const form = link.body as UploadLink;
        const posted = await postForm(w.gatewayUrl, 'acme', form, pdf, `doc-${order}.pdf`, 'application/pdf');
        expect([200, 201, 204]).toContain(posted.status);
        docs.push({
          s3_key: form.fields.key!,
          filename: `doc-${order}.pdf`,
          content_type: 'application/pdf',
          size: pdf.length,
          order_num: order,
          upload_doc_type_id: type,
        });
      }
      const r = await w.call('POST', '/docs/builder/upload', {
        user: 'merchant.admin',
        body: { case_id: caseId, files: docs, templates: [], save_as_draft: true },
      });
      expect(r.status, r.raw).toBe(200);
      expect(r.body.message).toBe('Evidence is being saved as a draft at Stripe (not submitted).');
      await eventually(async () => (await panel(caseId)).state === 'draft', 90_000);
      const [update] = w.stripe.requestsTo('POST', /^\/v1\/disputes\/dp_builderdraft1$/);
      expect(update!.form.submit).toBe('false');
      expect(update!.form['evidence[shipping_tracking_number]']).toBe('1Z999AA10123456784');
      // The attempt is recorded as the call returns; the case moves on when the job completes, just after.
      await eventually(async () => (await statusOf(caseId)) === CASE_STATUS.Working, 30_000);
    },
  );

  it('refuses a draft for a case no connection owns, and its panel is not connected', async () => {
    const other = (
      await w.t.db.query<{ id: number }>(
        `select c.id::int as id from cases.cases c where c.tenant_id = 'acme' and c.merchant_id = $1
           and c.status_id in (1, 2) and not exists (select 1 from cases.connector_disputes d where d.case_id = c.id)
         order by c.id limit 1`,
        [A1],
      )
    ).rows[0]!.id;
    const r = await upload(other, 'Not a Stripe case.', true);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'This case does not come from a processor connection: there is no draft to save.',
    );
    expect(await panel(other)).toMatchObject({ connected: false, state: 'none', attempts: [] });
  });
});

describe('Stripe’s refusals in the panel', () => {
  it(
    'a key without the Files permission (403): plain words, the code in small print, not retried',
    {
      timeout: 90_000,
    },
    async () => {
      const caseId = await webhook(w.stripe.addDispute({ id: 'dp_noperm0001' }));
      w.stripe.failNext('POST', /^\/v1\/files$/, {
        status: 403,
        code: 'secret_key_required',
        message: 'The provided key does not have the required permissions for this endpoint.',
      });
      const before = w.stripe.requestsTo('POST', /^\/v1\/files$/).length;
      expect((await upload(caseId, 'Proof.', false)).status).toBe(200);
      await eventually(async () => (await panel(caseId)).state === 'failed', 60_000);
      const p = await panel(caseId);
      expect(p.last.error).toEqual({
        message:
          'The connected Stripe key lacks a permission this needs (Disputes: write, Files: write). Ask the account owner to add them to the restricted key.',
        code: 'secret_key_required',
        status: 403,
      });
      expect(p.last).toMatchObject({ state: 'refused', final: true, mode: 'submit', file_id: null });
      expect(w.stripe.requestsTo('POST', /^\/v1\/files$/).length - before).toBe(1);
      await eventually(async () => (await statusOf(caseId)) === CASE_STATUS.Working, 30_000);
    },
  );

  it('a dispute Stripe already closed (400): said so, nothing retried', { timeout: 90_000 }, async () => {
    const caseId = await webhook(w.stripe.addDispute({ id: 'dp_closed0001' }));
    w.stripe.failNext('POST', /^\/v1\/disputes\/dp_closed0001$/, {
      status: 400,
      message: 'This dispute is already closed.',
    });
    expect((await upload(caseId, 'Proof.', false)).status).toBe(200);
    await eventually(async () => (await panel(caseId)).state === 'failed', 60_000);
    const p = await panel(caseId);
    expect(p.last.error).toEqual({
      message:
        'Stripe no longer takes evidence for this dispute: it is already closed or under review by the card issuer.',
      code: 'invalid_request_error',
      status: 400,
    });
    expect(w.stripe.requestsTo('POST', /^\/v1\/disputes\/dp_closed0001$/)).toHaveLength(1);
  });

  it(
    'evidence past its due date: refused before any call, and the panel says why',
    {
      timeout: 90_000,
    },
    async () => {
      const now = Math.floor(Date.now() / 1000);
      const caseId = await webhook(
        w.stripe.addDispute({ id: 'dp_pastdue0001', created: now - 30 * 86_400, dueBy: now - 9 * 86_400 }),
      );
      const before = w.stripe.requests.filter((r) => r.method === 'POST').length;
      expect((await upload(caseId, 'Late.', true)).status).toBe(200);
      await eventually(async () => (await panel(caseId)).state === 'failed', 60_000);
      const p = await panel(caseId);
      expect(p.last).toMatchObject({ mode: 'draft', state: 'refused', fields: [] });
      expect(p.last.error.message).toMatch(
        /^The response was due on \d{4}-\d{2}-\d{2}: Stripe no longer accepts/,
      );
      expect(w.stripe.requests.filter((r) => r.method === 'POST').length).toBe(before);
    },
  );
});
