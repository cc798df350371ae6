/// <reference lib="dom" />
import { request as httpRequest } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS, DEMO_TENANTS, demoMerchantId } from '@portal/contracts';
import { REPRESENTMENT_JOBS } from '../../services/docs/src/representment/jobs';
import { CONNECTOR_JOBS } from '../../services/case/src/connectors/backfill-job';
import { apiAs, networkQuiet, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';
import { makePdf } from '../support/representment-upload';
import { eventFixture, signEvent, StripeStandIn } from '../support/stripe-stand-in';

/**
 * Save as draft at Stripe and the case's 'Stripe submission' panel in
 * Chromium (issue 32): the merchant admin saves the evidence of a Stripe
 * case as a draft from the upload modal, the expanded case shows 'Draft at
 * Stripe' with the fields sent and Stripe's file id, then 'Submit the draft
 * to Stripe' submits it and the panel says so; the stand-in saw submit=false
 * then submit=true.
 */
let world: WebWorld;
const stripe = new StripeStandIn();
const KEY = 'rk_test_51BrowserDraftKey00001';
const SECRET = 'whsec_BrowserDraftSecret00001';
const A1 = demoMerchantId(DEMO_TENANTS[0]!, 'merchantA1');
const dir = mkdtempSync(join(tmpdir(), 'portal-stripe-draft-e2e-'));
let connection = '';

function deliver(type: string, dispute: Parameters<typeof eventFixture>[1]) {
  const raw = JSON.stringify(eventFixture(type, dispute));
  const base = new URL(world.stack.gatewayUrl);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path: `/api/connectors/stripe/${connection}/events`,
        method: 'POST',
        headers: {
          host: 'acme.localhost',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(raw)),
          'stripe-signature': signEvent(raw, SECRET),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(raw);
  });
}

const caseRow = (page: Page, id: number) =>
  page.getByTestId('case-grid').locator(`.ag-row[row-id="${id}"]`).first();
const statusOf = async (caseId: number) =>
  (await world.t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [caseId]))
    .rows[0]!.status_id;

beforeAll(async () => {
  await stripe.start();
  stripe.addKey(KEY, { id: 'acct_browser_draft', name: 'Blue Sky Outfitters' });
  world = await startWebWorld({ STRIPE_API_BASE: stripe.base }, undefined, {
    worker: { jobs: [...CONNECTOR_JOBS, ...REPRESENTMENT_JOBS], pollingIntervalSeconds: 0.5 },
  });
  // Connected through the API (the connect screen has its own browser test).
  const api = await apiAs(world, 'acme', 'merchant.admin');
  const mid = (
    await world.t.db.query<{ id: number }>(
      `select id::int as id from cases.mids where merchant_id = $1 order by id limit 1`,
      [A1],
    )
  ).rows[0]!.id;
  const created = await api<{ id: string }>(`/cm/merchants/${A1}/connections`, {
    method: 'POST',
    body: { processor: 'stripe', api_key: KEY, webhook_secret: SECRET, mid_ids: [mid] },
  });
  connection = created.id;
}, 120_000);
afterAll(async () => {
  await world?.close();
  await stripe.close();
});

describe('Stripe submission (merchant admin)', () => {
  it('saves a draft at Stripe, sees it in the case panel, submits it and sees it submitted', async () => {
    const dispute = stripe.addDispute({
      id: 'dp_browserdraft1',
      reason: 'product_not_received',
      amount: 7200,
    });
    const sent = await deliver('charge.dispute.created', dispute);
    expect(sent.status, sent.body).toBe(200);
    const caseId = (JSON.parse(sent.body) as { case_id: number }).case_id;

    const { page } = await world.newPage();
    await signInToShell(
      page,
      world,
      'acme',
      'merchant.admin',
      undefined,
      '/case-management?tab=new_cases&search=dp_browserdraft1',
    );
    const row = caseRow(page, caseId);
    await row.waitFor({ timeout: 30_000 });

    // The upload modal offers 'Save as draft at Stripe' beside Upload for a Stripe case.
    writeFileSync(join(dir, 'evidence.pdf'), await makePdf(2));
    await row.getByTestId('doc-upload').first().click();
    const modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await modal.getByTestId('upload-file-input').setInputFiles(join(dir, 'evidence.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count(), { timeout: 15_000 }).toBe(1);
    await modal.getByTestId('upload-comment').fill('Delivered and signed for; tracking 1Z999.');
    const draftButton = modal.getByTestId('save-draft-at-stripe');
    await draftButton.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: '/tmp/stripe-draft-modal.png' });
    await draftButton.click();
    await modal.waitFor({ state: 'detached', timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (await statusOf(caseId)) === CASE_STATUS.Working &&
          stripe.requestsTo('POST', /^\/v1\/disputes\/dp_browserdraft1$/).length === 1,
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(stripe.requestsTo('POST', /^\/v1\/disputes\/dp_browserdraft1$/)[0]!.form.submit).toBe('false');

    // The expanded case shows the panel: draft, the fields sent, Stripe's file id.
    await page.goto(world.url('acme', `/case-management?tab=working_cases&search=dp_browserdraft1`));
    await caseRow(page, caseId).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: `Expand case ${caseId}` }).click();
    const panel = page.getByTestId('stripe-submission-panel');
    await panel.waitFor({ timeout: 20_000 });
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 20_000 }).toBe('draft');
    expect(await panel.getByTestId('stripe-submission-state').textContent()).toBe(
      'Draft at Stripe (not submitted)',
    );
    expect(await panel.getByTestId('stripe-submission-fields').textContent()).toContain('uncategorized_text');
    expect(await panel.textContent()).toContain(stripe.files[0]!.id);
    expect(await panel.textContent()).not.toContain(KEY);
    await networkQuiet(page);
    await page.screenshot({ path: '/tmp/stripe-draft-panel.png' });

    // Submit the draft from the panel.
    await panel.getByTestId('stripe-submit-draft').click();
    await expect.poll(() => statusOf(caseId), { timeout: 60_000 }).toBe(CASE_STATUS.TransportCompleted);
    const updates = stripe.requestsTo('POST', /^\/v1\/disputes\/dp_browserdraft1$/);
    expect(updates.map((u) => u.form.submit)).toEqual(['false', 'true']);
    expect(stripe.disputes.get('dp_browserdraft1')!.status).toBe('under_review');

    // The case left the working list; it shows submitted wherever it is listed.
    await page.goto(world.url('acme', `/case-management?tab=completed&search=dp_browserdraft1`));
    await caseRow(page, caseId).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: `Expand case ${caseId}` }).click();
    const after = page.getByTestId('stripe-submission-panel');
    await expect.poll(() => after.getAttribute('data-state'), { timeout: 20_000 }).toBe('submitted');
    expect(await after.getByTestId('stripe-submission-state').textContent()).toBe('Submitted to Stripe');
    await networkQuiet(page);
    await page.screenshot({ path: '/tmp/stripe-submitted-panel.png' });
  }, 240_000);
});
