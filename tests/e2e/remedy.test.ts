/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANTS, REMEDY_MESSAGES as M, demoMerchantId, undisputedDateWindow } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * The CE 3.0 Remedy Assistant (spec 2 §2.6, §2.8, §4, §5, §8) in Chromium
 * against the full stack: a manager opens the upload modal of an eligible
 * case, starts the remedy, walks the five steps (button states, masks, date
 * limits, deleting a transaction, the matching-evidence exclusions, the
 * certification) to 'Evidence Submitted Successfully'; a second case is
 * refused by the server and shows 'Errors Submitting Remedy' with the
 * per-transaction blocks; a Mastercard case shows the not-eligible text.
 */
let world: WebWorld;
const SHOTS = '/tmp/shots';
const ACME = DEMO_TENANTS.find((t) => t.id === 'acme')!;

interface Eligible {
  id: number;
  case_no: string;
  date_post: string;
}

async function eligibleCases(): Promise<Eligible[]> {
  const { rows } = await world.t.db.query<Eligible>(
    `select c.id::int as id, c.case_no, to_char(c.date_post, 'YYYY-MM-DD') as date_post
     from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id
     where c.tenant_id = 'acme' and c.card_type_id = 1 and r.code = '10.4' and c.cycle_id = 1 and c.status_id = 1
       and c.merchant_id = $1 and c.assigned_user_id is null
     order by c.date_post desc, c.id`,
    [demoMerchantId(ACME, 'merchantA1')],
  );
  return rows;
}

const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

async function openUploadModal(page: Page, c: { id: number; case_no: string }): Promise<Locator> {
  await page.getByTestId('case-list-case-management').waitFor();
  await page.getByLabel('Search cases').fill(c.case_no);
  const row = page.getByTestId('case-grid').locator(`.ag-row[row-id="${c.id}"]`).first();
  await row.waitFor({ timeout: 20_000 });
  await row.getByTestId('doc-upload').first().click();
  const modal = page.getByTestId('upload-representment-modal');
  await modal.waitFor();
  return modal;
}

const primary = (w: Locator) => w.getByTestId('remedy-primary');
const stepTitle = (w: Locator) => w.getByTestId('remedy-step-title').textContent();

async function fillDetails(w: Locator) {
  await w.getByTestId('remedy-provided-date').fill(shift(new Date().toISOString().slice(0, 10), 30));
  await w.getByTestId('remedy-details-merch-or-serv').selectOption('Merchandise');
  await w.getByTestId('remedy-details-delivery-status').selectOption('D');
  await w.getByTestId('remedy-details-tracking').fill('1Z999AA10123456784');
  await w.getByTestId('remedy-details-description').fill('Running shoes, size 42');
}

async function fillTxn(w: Locator, t: { id: string; amount: string; date: string; services?: boolean }) {
  await w.getByTestId('remedy-txn-id').fill(t.id);
  await w.getByTestId('remedy-txn-amount').fill(t.amount);
  await w.getByTestId('remedy-txn-currency').selectOption('USD');
  await w.getByTestId('remedy-txn-date').fill(t.date);
  if (t.services) {
    await w.getByTestId('remedy-txn-merch-or-serv').selectOption('Services');
  } else {
    await w.getByTestId('remedy-txn-merch-or-serv').selectOption('Merchandise');
    await w.getByTestId('remedy-txn-delivery-status').selectOption('D');
    await w.getByTestId('remedy-txn-tracking').fill('1Z999AA10123456785');
  }
  await w.getByTestId('remedy-txn-description').fill('Running shoes');
}

describe('CE 3.0 remedy wizard (manager, acme)', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // With the worker, the attached CE document compiles and is sent as any upload is.
    world = await startWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('walks the five steps to Evidence Submitted Successfully', async () => {
    const [c] = await eligibleCases();
    expect(c).toBeDefined();
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    const modal = await openUploadModal(page, c!);
    await expect
      .poll(() => modal.getByRole('heading').first().textContent())
      .toBe(`Upload Case Document (${c!.id}) or Start CE 3.0 Remedy`);
    expect(await modal.getByTestId('remedy-eligible').textContent()).toBe(M.launcherEligible);
    await modal.getByTestId('remedy-start').click();

    const w = page.getByTestId('remedy-wizard');
    await w.waitFor();
    expect(await w.getByRole('heading').first().textContent()).toBe(M.wizardTitle);
    await expect.poll(() => w.getByTestId('remedy-summary').textContent()).toContain(c!.case_no);
    // Step 1: 'Add Details' disabled until shipping info is valid; Merchandise needs tracking.
    expect(await primary(w).textContent()).toBe('Add Details');
    expect(await primary(w).isDisabled()).toBe(true);
    await fillDetails(w);
    await w.getByTestId('remedy-details-tracking').fill('');
    await w.getByTestId('remedy-details-tracking-error').waitFor();
    expect(await primary(w).isDisabled()).toBe(true);
    await w.getByTestId('remedy-details-tracking').fill('1Z999AA10123456784');
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();

    // Step 2: the date picker is limited to 120-365 days before the post date; masks on id and amount.
    await expect.poll(() => stepTitle(w)).toBe('Step 2 of 5: Undisputed Transaction 1');
    expect(await primary(w).textContent()).toBe('Add Transaction');
    const window = undisputedDateWindow(c!.date_post);
    expect(await w.getByTestId('remedy-txn-date').getAttribute('min')).toBe(window.from);
    expect(await w.getByTestId('remedy-txn-date').getAttribute('max')).toBe(window.to);
    await fillTxn(w, {
      id: '7412-3456-7890-1234-5678-901',
      amount: '49.999',
      date: shift(c!.date_post, 150),
    });
    expect(await w.getByTestId('remedy-txn-id').inputValue()).toBe('74123456789012345678901');
    expect(await w.getByTestId('remedy-txn-amount').inputValue()).toBe('49.99');
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();

    // Step 3: a 14-character id is refused with the spec's text; Services hides delivery status and tracking.
    await expect.poll(() => stepTitle(w)).toBe('Step 3 of 5: Undisputed Transaction 2');
    await fillTxn(w, { id: '38123456789012', amount: '120', date: shift(c!.date_post, 300), services: true });
    expect(await w.getByTestId('remedy-txn-delivery-status').count()).toBe(0);
    await expect.poll(() => w.getByTestId('remedy-txn-id-error').textContent()).toBe(M.txnIdLength);
    expect(await primary(w).isDisabled()).toBe(true);
    await w.getByTestId('remedy-txn-id').fill('381234567890123');
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();

    // Step 4: deleting an undisputed transaction goes back to step 2 (§4); add it again.
    await expect.poll(() => stepTitle(w)).toBe('Step 4 of 5: Matching Evidence');
    await w.getByTestId('remedy-delete-txn-2').click();
    await expect.poll(() => stepTitle(w)).toBe('Step 2 of 5: Undisputed Transaction 1');
    expect(await w.getByTestId('remedy-txn-id').inputValue()).toBe('74123456789012345678901');
    await primary(w).click();
    await expect.poll(() => stepTitle(w)).toBe('Step 3 of 5: Undisputed Transaction 2');
    await fillTxn(w, {
      id: '381234567890123',
      amount: '120.00',
      date: shift(c!.date_post, 300),
      services: true,
    });
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();

    await expect.poll(() => stepTitle(w)).toBe('Step 4 of 5: Matching Evidence');
    expect(await primary(w).textContent()).toBe('Save and Continue');
    expect(await primary(w).isDisabled()).toBe(true);
    await w.getByTestId('remedy-match-on-ip').click();
    await w.getByTestId('remedy-match-ip').fill('203.0.113.24');
    await w.getByTestId('remedy-match-on-deviceId').click();
    await w.getByTestId('remedy-match-deviceId').fill('DEV-7F3A-22B1');
    // Device ID and fingerprint together are refused; unchecking clears the field.
    await w.getByTestId('remedy-match-on-fingerprint').click();
    await w.getByTestId('remedy-match-fingerprint').fill('fp:9a8b');
    await expect
      .poll(() => w.getByTestId('remedy-match-fingerprint-error').textContent())
      .toBe('Device ID and Device Fingerprint may not both be supplied.');
    expect(await primary(w).isDisabled()).toBe(true);
    await w.getByTestId('remedy-match-on-fingerprint').click();
    expect(await w.getByTestId('remedy-match-fingerprint').count()).toBe(0);
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();

    // Step 5: 'Complete' only once certified.
    await expect.poll(() => stepTitle(w)).toBe('Step 5 of 5: Confirmation');
    expect(await primary(w).textContent()).toBe('Complete');
    expect(await primary(w).isDisabled()).toBe(true);
    const confirmation = await w.getByTestId('remedy-confirmation').textContent();
    expect(confirmation).toContain('74123456789012345678901');
    expect(confirmation).toContain('203.0.113.24');
    await w.getByTestId('remedy-certify').click();
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await screenshot(page, 'remedy-confirmation');
    await page.screenshot({ path: `${SHOTS}/remedy-confirmation.png` });
    await primary(w).click();

    await w.getByTestId('remedy-success').waitFor({ timeout: 20_000 });
    expect(await w.getByTestId('remedy-success').textContent()).toBe(M.success);
    await page.screenshot({ path: `${SHOTS}/remedy-success.png` });
    // After 2 s the wizard and the upload modal close.
    await w.waitFor({ state: 'detached', timeout: 10_000 });
    await modal.waitFor({ state: 'detached', timeout: 10_000 });

    const { rows } = await world.t.db.query<{ state: string; dl: { undisputed_transactions: unknown[] } }>(
      `select state, dl from cases.remedy_submissions where case_id = $1`,
      [c!.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('submitted');
    expect(rows[0]!.dl.undisputed_transactions).toEqual([
      expect.objectContaining({
        historical_arn: '74123456789012345678901',
        historical_transaction_id: null,
        historical_tran_amount: 49.99,
        historical_tran_date: `${shift(c!.date_post, 150)}T00:00:00.000Z`,
      }),
      expect.objectContaining({
        historical_arn: null,
        historical_transaction_id: '381234567890123',
        historical_tran_amount: 120,
        merchandise_or_services: 'Services',
        shipping_delivery_status: 'O',
        tracking_information: null,
      }),
    ]);
    const doc = await world.t.db.query<{ filename: string; uploaded_by: string }>(
      `select d.filename, d.uploaded_by from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1`,
      [c!.id],
    );
    expect(doc.rows).toEqual([{ filename: `ce3-remedy-${c!.id}.pdf`, uploaded_by: 'manager' }]);
  });

  it('shows Errors Submitting Remedy with the per-transaction blocks when the server refuses', async () => {
    const cases = await eligibleCases();
    const c = cases[0]!;
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    const modal = await openUploadModal(page, c);
    await modal.getByTestId('remedy-start').click();
    const w = page.getByTestId('remedy-wizard');
    await w.waitFor();
    await fillDetails(w);
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();
    await fillTxn(w, { id: '74123456789012345678901', amount: '10', date: shift(c.date_post, 200) });
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();
    await fillTxn(w, { id: '381234567890123', amount: '20', date: shift(c.date_post, 250) });
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();
    // One element only: the browser lets it through (the guidance is not fully enforced there), the server refuses.
    await w.getByTestId('remedy-match-on-ip').click();
    await w.getByTestId('remedy-match-ip').fill('203.0.113.24');
    await expect.poll(() => primary(w).isDisabled()).toBe(false);
    await primary(w).click();
    await w.getByTestId('remedy-certify').click();
    await primary(w).click();

    const dialog = page.getByTestId('remedy-errors');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.getByTestId('remedy-errors-title').textContent()).toBe(M.dialogTitle);
    expect(await dialog.getByTestId('remedy-errors-message').textContent()).toBe(M.invalid);
    const blocks = dialog.getByTestId('remedy-errors-block');
    expect(await blocks.count()).toBe(2);
    const rule =
      'Identify at least two matching data elements, one of which must be IP address or Device ID.';
    expect(await blocks.nth(0).textContent()).toBe(
      `-- Errors for 1st Undistputed Transaction --IP Address Details: ${rule}`,
    );
    expect(await blocks.nth(1).textContent()).toContain('-- Errors for 2nd Undistputed Transaction --');
    await page.screenshot({ path: `${SHOTS}/remedy-errors.png` });
    await screenshot(page, 'remedy-errors');
    // The wizard stays on its last step; nothing was stored.
    await dialog.getByTestId('remedy-errors-close').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await stepTitle(w)).toBe('Step 5 of 5: Confirmation');
    const { rows } = await world.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.remedy_submissions where case_id = $1`,
      [c.id],
    );
    expect(rows[0]!.n).toBe(0);
    // Back from step 1 closes the wizard (and resets it).
    for (let i = 0; i < 5; i++) await w.getByTestId('remedy-back').click();
    await w.waitFor({ state: 'detached' });
  });

  it('a case that does not qualify shows the not-eligible text and no title suffix', async () => {
    const { rows } = await world.t.db.query<{ id: number; case_no: string }>(
      `select id::int as id, case_no from cases.cases where tenant_id = 'acme' and card_type_id = 2 and status_id = 1
         and assigned_user_id is null order by date_post desc, id limit 1`,
    );
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    const modal = await openUploadModal(page, rows[0]!);
    await expect
      .poll(() => modal.getByRole('heading').first().textContent())
      .toBe(`Upload Case Document (${rows[0]!.id})`);
    expect(await modal.getByTestId('remedy-not-eligible').textContent()).toBe(M.notQualified);
    expect(await modal.getByTestId('remedy-start').count()).toBe(0);
  });
});
