/// <reference lib="dom" />
import { request as httpRequest } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS } from '@portal/contracts';
import { REPRESENTMENT_JOBS } from '../../services/docs/src/representment/jobs';
import { CONNECTOR_JOBS } from '../../services/case/src/connectors/backfill-job';
import { networkQuiet, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';
import { makePdf } from '../support/representment-upload';
import { eventFixture, signEvent, StripeStandIn } from '../support/stripe-stand-in';

/**
 * The Stripe connector in Chromium (issue 32): a merchant admin connects a
 * Stripe account on Merchant Settings (the key checked by the stand-in through
 * the official SDK, shown afterwards by its last four) and adds the signing
 * secret; a signed webhook makes the dispute a case in the list; the evidence
 * uploaded from the case list reaches Stripe; the won dispute shows its verdict.
 */
let world: WebWorld;
const stripe = new StripeStandIn();
const KEY = 'rk_test_51BrowserRestricted0001';
const SECRET = 'whsec_BrowserSigningSecret0001';
const dir = mkdtempSync(join(tmpdir(), 'portal-stripe-e2e-'));

/** Posts a signed Stripe event to the gateway as Stripe would (raw body, Stripe-Signature). */
function deliver(path: string, type: string, dispute: Parameters<typeof eventFixture>[1]) {
  const raw = JSON.stringify(eventFixture(type, dispute));
  const base = new URL(world.stack.gatewayUrl);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path,
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

beforeAll(async () => {
  await stripe.start();
  stripe.addKey(KEY, { id: 'acct_browser', name: 'Blue Sky Outfitters' });
  world = await startWebWorld({ STRIPE_API_BASE: stripe.base }, undefined, {
    worker: { jobs: [...CONNECTOR_JOBS, ...REPRESENTMENT_JOBS], pollingIntervalSeconds: 0.5 },
  });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await stripe.close();
});

describe('Stripe connector (merchant admin)', () => {
  it('connects an account, receives a dispute by webhook, sends evidence and shows the outcome', async () => {
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/merchant-settings');
    const panel = page.getByTestId('connections-panel');
    await panel.waitFor({ timeout: 30_000 });
    await panel.getByText('No processor connected.', { exact: false }).waitFor();

    // Connect: the key, one MID.
    await page.getByTestId('connect-stripe').click();
    const dialog = page.getByTestId('connect-stripe-dialog');
    await dialog.getByLabel('Restricted API key').fill(KEY);
    const mids = dialog.getByTestId('connect-stripe-mids');
    await mids.locator('label').first().waitFor();
    await mids.locator('label').first().click();
    await page.screenshot({ path: '/tmp/stripe-connect-dialog.png' });
    await dialog.getByTestId('connect-stripe-submit').click();
    const card = panel.getByTestId('connection-card');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain('key ····0001');
    expect(await card.textContent()).not.toContain(KEY);
    const url = (await card.getByTestId('connection-webhook-url').textContent())!;
    expect(url).toMatch(/^http:\/\/acme\.localhost:\d+\/api\/connectors\/stripe\/[0-9a-f-]{36}\/events$/);
    await card
      .getByTestId('connection-backfill')
      .and(page.locator('[data-status="done"]'))
      .waitFor({ timeout: 30_000 });

    // The endpoint now exists in Stripe: its signing secret.
    await card.getByLabel('Webhook signing secret').fill(SECRET);
    await card.getByRole('button', { name: 'Save signing secret' }).click();
    await card.getByLabel('Webhook signing secret').waitFor({ state: 'detached' });
    await page.screenshot({ path: '/tmp/stripe-connected.png', fullPage: true });

    // Stripe sends a new dispute.
    const dispute = stripe.addDispute({ id: 'dp_browser0001', reason: 'product_not_received', amount: 6400 });
    const sent = await deliver(new URL(url).pathname, 'charge.dispute.created', dispute);
    expect(sent.status, sent.body).toBe(200);
    const caseId = (JSON.parse(sent.body) as { case_id: number }).case_id;

    // It is a case in the merchant's list.
    await page.goto(world.url('acme', `/case-management?tab=new_cases&search=dp_browser0001`));
    const row = caseRow(page, caseId);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('dp_browser0001');
    await networkQuiet(page);
    await page.screenshot({ path: '/tmp/stripe-case-list.png' });

    // Evidence from the upload modal goes to Stripe.
    writeFileSync(join(dir, 'evidence.pdf'), await makePdf(2));
    await row.getByTestId('doc-upload').first().click();
    const modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await modal.getByTestId('upload-file-input').setInputFiles(join(dir, 'evidence.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count(), { timeout: 15_000 }).toBe(1);
    await modal.getByTestId('upload-comment').fill('Tracking 1Z999 delivered to the billing address.');
    await modal.getByTestId('upload-submit').click();
    await expect
      .poll(
        async () =>
          (
            await world.t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [
              caseId,
            ])
          ).rows[0]!.status_id,
        { timeout: 60_000 },
      )
      .toBe(CASE_STATUS.TransportCompleted);
    expect(stripe.files).toHaveLength(1);
    expect(stripe.disputes.get('dp_browser0001')!.status).toBe('under_review');
    expect(stripe.disputes.get('dp_browser0001')!.evidence.uncategorized_text).toBe(
      'Tracking 1Z999 delivered to the billing address.',
    );

    // Stripe decides: won. The case shows the verdict.
    const won = await deliver(new URL(url).pathname, 'charge.dispute.closed', {
      ...stripe.disputes.get('dp_browser0001')!,
      status: 'won',
    });
    expect(won.status, won.body).toBe(200);
    await page.goto(world.url('acme', `/case-management?tab=completed&search=dp_browser0001`));
    await caseRow(page, caseId).waitFor({ timeout: 30_000 });
    await expect.poll(() => caseRow(page, caseId).textContent(), { timeout: 20_000 }).toContain('Win');
    await networkQuiet(page);
    await page.screenshot({ path: '/tmp/stripe-outcome.png' });
  }, 240_000);
});
