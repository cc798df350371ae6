/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILDER_MESSAGES,
  BULK_MESSAGES,
  CASE_STATUS,
  demoMerchantId,
  demoTenant,
  REMEDY_MESSAGES,
  REPRESENTMENT_MESSAGES as M,
  undisputedDateWindow,
} from '@portal/contracts';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { screenshot } from '../support/browser';
import { firstCell, waitRows } from '../support/e2e-case-grid';
import { startEmbeddedWorld, type EmbeddedWorld } from '../support/e2e-embedded';
import { clickUntil, networkQuiet, signInToShell, type TenantId } from '../support/e2e-web';
import { makePdf } from '../support/representment-upload';
import { TestReceiver } from '../integration/webhooks/receiver';

/**
 * Issue 28 part 2, "Test the default": the main writes of the screens, each as
 * a user makes it in Chromium, against the stack exactly as `npm start` builds
 * it without DATABASE_URL and REDIS_URL (tests/support/e2e-embedded.ts): one
 * process, a fresh PGlite (one connection) migrated and seeded with the
 * default demo data, the in-process cache (live updates through it) and the
 * in-process job worker polling at its default interval. No Postgres, no Redis.
 */
let world: EmbeddedWorld;
const receiver = new TestReceiver();
const dir = mkdtempSync(join(tmpdir(), 'portal-embedded-files-'));
const ACME = demoTenant('acme');
/** The machine is shared and PGlite serves one query at a time: give the UI time. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout });
const q = <T>(sql: string, params: unknown[] = []) => world.t.db.query<T>(sql, params).then((r) => r.rows);
const statusOf = async (id: number) =>
  Number(
    (await q<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))[0]!.status_id,
  );

/** A fresh browser context signed in through the form on `path`; closed by the caller. */
async function open(tenant: TenantId, username: string, path: string) {
  const opened = await world.newPage();
  await signInToShell(opened.page, world, tenant, username, undefined, path);
  return opened;
}

const toast = (page: Page, text: string) => page.getByText(text).first().waitFor();

/**
 * The New tab of a case list, once its rows are in: an icon clicked in the grid of the tab before
 * (still on screen while the new one loads, slower on PGlite) would open nothing.
 */
async function newTab(page: Page) {
  // Wait for the New tab's own rows: the Working Cases rows before them show builder icons too (issue 29).
  const listed = page.waitForResponse((r) => /\/api\/cm\/cases\?.*filter_group=new_cases/.test(r.url()));
  await page.getByTestId('tab-new_cases').click();
  await listed;
  await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('new_cases');
  await networkQuiet(page, 30_000);
}

beforeAll(async () => {
  world = await startEmbeddedWorld();
  await receiver.start('127.0.0.1');
  console.info(
    `embedded stack started (migrate + seed + services + worker) in ${world.startSeconds.toFixed(1)} s`,
  );
}, 240_000);
afterAll(async () => {
  await world?.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded default (npm start: PGlite, in-process cache and worker)', () => {
  it('runs on PGlite and the in-process cache, seeded with the demo data', async () => {
    expect(world.portal.deps.db.kind).toBe('pglite');
    expect(world.portal.deps.cache.constructor.name).toBe('MemoryCache');
    expect(world.t.env.DATABASE_URL).toBeUndefined();
    expect(world.t.env.REDIS_URL).toBeUndefined();
    expect(world.portal.stack.worker?.state).toBe('started');
    const [{ n }] = (await q<{ n: number }>(
      `select count(*)::int as n from cases.cases where tenant_id = 'acme'`,
    )) as [{ n: number }];
    expect(n).toBeGreaterThanOrEqual(3000);
  });

  it('representment: Document column upload, submit, compiled and transported (TransportCompleted)', async () => {
    const pdfPath = join(dir, 'evidence.pdf');
    const jpgPath = join(dir, 'receipt.jpg');
    writeFileSync(pdfPath, await makePdf(2));
    writeFileSync(jpgPath, flatJpeg(600, 400));
    const { context, page } = await open('acme', 'manager', '/case-management');
    try {
      await page.getByTestId('case-list-case-management').waitFor();
      await newTab(page);
      const grid = page.getByTestId('case-grid');
      const upload = grid.getByTestId('doc-upload').first();
      await upload.waitFor({ timeout: 30_000 });
      const caseId = Number(await upload.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id'));
      expect(caseId).toBeGreaterThan(0);
      await upload.click();
      const modal = page.getByTestId('upload-representment-modal');
      await modal.waitFor();
      const input = modal.getByTestId('upload-file-input');
      await input.setInputFiles(pdfPath);
      await poll(() => modal.getByTestId('upload-staged-item').count()).toBe(1);
      await input.setInputFiles(jpgPath);
      await poll(() => modal.getByTestId('upload-staged-item').count()).toBe(2);
      await modal.getByTestId('upload-comment').fill('Embedded stack: receipt and delivery proof');
      await poll(() => modal.getByTestId('upload-totals').textContent()).toContain('3 page(s)');
      await screenshot(page, 'embedded-upload-modal');
      await modal.getByTestId('upload-submit').click();
      await page
        .getByTestId('result-dialog')
        .filter({ hasText: M.successTitle })
        .waitFor({ timeout: 30_000 });

      // The in-process worker compiles (DocCompiled) and transports it (TransportCompleted).
      await poll(() => statusOf(caseId), 90_000).toBe(CASE_STATUS.TransportCompleted);
      const versions = await q<{ state: string; compiled_pages: number; submission_id: string | null }>(
        `select state, compiled_pages, submission_id from docs.representment_versions where case_id = $1`,
        [caseId],
      );
      expect(versions).toEqual([
        { state: 'compiled', compiled_pages: 3, submission_id: expect.stringMatching(/^SIM-/) },
      ]);
      // The row now offers the compiled document (live update or the list's recheck).
      await page.getByTestId('tab-completed').click();
      await page.getByLabel('Search cases').fill(String(caseId));
      const row = grid.locator(`.ag-row[row-id="${caseId}"]`);
      await row.getByTestId('doc-download').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'embedded-upload-transported');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('onboarding: upload a merchant CSV, fix the failing cell, finalize', async () => {
    const run = Date.now().toString(36);
    const csv = [
      'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone',
      `Emb Onb ${run} A,,,Basic,US,,1 Main St,Austin,TX,78701,+1 512 555 0100,Ann,Able,ann.${run}@example.com,ann.${run},`,
      `Emb Onb ${run} B,,,Pro,CA,,2 Main St,Toronto,ON,M5H,+1 416 555 0100,Bob,Baker,not-an-email,bob.${run},`,
    ].join('\r\n');
    const { context, page } = await open('acme', 'admin', '/onboarding');
    try {
      await page.getByTestId('onboarding-history').waitFor();
      await page.getByRole('button', { name: 'Initiate Onboarding' }).click();
      const dialog = page.getByTestId('onboarding-upload-dialog');
      await dialog.waitFor();
      await dialog
        .getByTestId('csv-file-input')
        .setInputFiles({ name: 'merchants.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await dialog.locator('select[name="onboarding-type"]').selectOption('merchant');
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await page.getByTestId('onboarding-edit').waitFor();
      const bad = page.getByTestId('record-2').locator('input[name="email"]');
      await poll(() => bad.getAttribute('data-failing')).toBe('true');
      const finalize = page.getByRole('button', { name: 'Finalize' });
      expect(await finalize.isDisabled()).toBe(true);
      await bad.fill(`bob.${run}@example.com`);
      await page.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Successfully updated record.');
      await poll(() => page.getByTestId('failing-count').textContent()).toBe('0 failing cell(s)');
      await poll(() => finalize.isDisabled()).toBe(false);
      await finalize.click();
      await toast(page, 'Your action was a success!');
      // The in-process worker runs the onboarding job: merchants and their admin users.
      await poll(
        async () =>
          (
            await q(`select 1 from users.users where tenant = 'acme' and username = any($1)`, [
              [`ann.${run}`, `bob.${run}`],
            ])
          ).length,
        60_000,
      ).toBe(2);
      const merchants = await q<{ business_name: string }>(
        `select business_name from cases.merchants where tenant_id = 'acme' and business_name like $1 order by 1`,
        [`Emb Onb ${run}%`],
      );
      expect(merchants.map((m) => m.business_name)).toEqual([`Emb Onb ${run} A`, `Emb Onb ${run} B`]);
    } finally {
      await context.close();
    }
  }, 150_000);

  it('ERT: add one for a case and resolve it', async () => {
    const caseId = (
      await q<{ id: string }>(`select id from cases.cases where tenant_id = 'acme' order by id limit 1`)
    )[0]!.id;
    const content = `Embedded ERT ${Date.now().toString(36)}`;
    const { context, page } = await open('acme', 'admin', '/ert');
    try {
      await page.getByTestId('ert-records').waitFor();
      await page.getByRole('button', { name: 'Add ERT' }).click();
      const dialog = page.getByTestId('add-ert-dialog');
      await dialog.locator('input[name="case-id"]').fill(String(caseId));
      await dialog.locator('textarea[name="content"]').fill(content);
      await dialog.getByRole('button', { name: 'Add' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByLabel('Search ERTs').fill(content);
      await page.getByLabel('Search ERTs').press('Enter');
      const grid = page.getByTestId('ert-grid');
      await poll(() => grid.textContent()).toContain(content);
      await grid.getByRole('button', { name: 'Resolve' }).first().click();
      await toast(page, 'ERT successfully resolved.');
      await poll(() => grid.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
      const rows = await q<{ resolved_by: string }>('select resolved_by from cases.erts where content = $1', [
        content,
      ]);
      expect(rows).toEqual([{ resolved_by: 'admin' }]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('users: an admin adds a merchant user', async () => {
    const username = `emb.${Date.now().toString(36)}`;
    const { context, page } = await open('acme', 'admin', '/users');
    try {
      await page.getByTestId('add-user').click();
      await poll(() => page.getByTestId('user-form-title').textContent()).toBe('Add User');
      await page.locator('input[name="firstName"]').fill('Emma');
      await page.locator('input[name="lastName"]').fill('Embedded');
      await page.locator('input[name="username"]').fill(username);
      await page.getByTestId('company-input').fill('Blue Sky');
      await page.getByTestId('company-option').filter({ hasText: 'Blue Sky Outfitters' }).click();
      await poll(() => page.getByTestId('role-select').isDisabled()).toBe(false);
      await poll(() => page.getByTestId('role-select').locator('option').count()).toBeGreaterThan(1);
      await page.getByTestId('role-select').selectOption({ label: 'Merchant User' });
      await page.locator('input[name="email"]').fill(`${username}@bluesky.example`);
      await page.getByTestId('save-user').click();
      await page.getByTestId('user-saved-banner').waitFor();
      expect(await page.getByTestId('user-saved-banner').textContent()).toContain(
        'You successfully updated/created the user.',
      );
      const rows = await q(`select 1 from users.users where tenant = 'acme' and username = $1`, [username]);
      expect(rows).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('merchant hierarchy: a partner admin adds a merchant, a MID to it and an RDR rule', async () => {
    const name = `Emb Merchant ${Date.now().toString(36)}`;
    const mid = `EMB${Date.now().toString().slice(-8)}`;
    const { context, page } = await open('acme', 'partner.admin', '/merchant-hierarchy');
    try {
      await page.getByTestId('tree-root').waitFor();
      await page.getByRole('button', { name: 'Add Merchant' }).click();
      const form = page.getByTestId('merchant-form');
      await form.waitFor();
      await form.locator('input[name="merchantBusinessName"]').fill(name);
      await form.locator('input[name="businessAddress"]').fill('1 Test Way');
      await form.locator('input[name="businessCity"]').fill('Austin');
      await form.locator('select[name="businessCountry"]').selectOption({ label: 'United States' });
      await form.locator('input[name="businessRegionOrState"]').fill('TX');
      await form.locator('input[name="businessZipCode"]').fill('73301');
      await form.locator('input[name="businessPhone"]').fill('555-0111');
      await form.getByRole('button', { name: 'Submit' }).click();
      await toast(page, 'Merchant successfully added!');
      const merchants = await q<{ parent_id: number }>(
        `select parent_id from cases.merchants where tenant_id = 'acme' and business_name = $1`,
        [name],
      );
      expect(merchants).toEqual([{ parent_id: demoMerchantId(ACME, 'partnerA') }]);

      await page.getByTestId('tree-merchant').filter({ hasText: name }).click();
      await page.getByText('Merchant Details').first().waitFor();
      await page.getByRole('button', { name: 'Add MID' }).click();
      const midForm = page.getByTestId('mid-form');
      await midForm.waitFor();
      await midForm.locator('input[name="mid"]').fill(mid);
      await midForm.locator('input[name="alias"]').fill('Embedded Alias');
      await midForm.locator('input[name="descriptor"]').fill('EMB*SHOP');
      await poll(() => midForm.locator('select[name="processor_id"] option').count()).toBeGreaterThan(1);
      await midForm.locator('select[name="processor_id"]').selectOption({ label: 'TSYS' });
      await midForm.getByRole('button', { name: 'Submit' }).click();
      await toast(page, 'MID successfully added!');
      const details = page.getByTestId('mid-details');
      await poll(() => details.locator('[data-field="MID"]').textContent()).toBe(mid);

      // RDR: switch the Visa RDR deflector on for the MID, then save a rule.
      await details.getByRole('button', { name: 'Edit MID' }).click();
      const edit = page.getByTestId('mid-form');
      await edit.waitFor();
      await edit.getByText('Visa RDR').click();
      await edit.getByRole('button', { name: 'Submit' }).click();
      await details.getByText('Visa RDR: Pending Activation').waitFor();
      await details.getByRole('button', { name: 'Edit RDR' }).click();
      const rdr = page.getByTestId('rdr-rule-modal');
      await rdr.getByRole('button', { name: 'Add Condition' }).click();
      const row = rdr.getByTestId('rdr-row').first();
      await row.getByLabel('Attribute').selectOption({ label: 'Transaction Amount' });
      await row.getByLabel('Operator').selectOption({ label: 'LessThan' });
      await row.getByLabel('Value').fill('1,250.00');
      await rdr.getByRole('button', { name: 'Save Rule' }).click();
      await rdr.getByText('Successfully updated Verifi RDR rules.').waitFor();
      await screenshot(page, 'embedded-merchant-hierarchy');
      const rules = await q(
        `select r.subject_id, r.operator_id, r.value from cases.rdr_rules r join cases.mids m on m.id = r.mid_id where m.mid = $1`,
        [mid],
      );
      expect(rules).toEqual([{ subject_id: 3, operator_id: 4, value: '1,250.00' }]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('alerts: a merchant admin marks an outcome and confirms completion', async () => {
    const A1 = demoMerchantId(ACME, 'merchantA1');
    // A fresh open alert of merchantA1 on a descriptor mapped to a MID (as the alert feed would add it).
    const orderId = `EMB-ALERT-${Date.now().toString(36)}`;
    const [{ id }] = (await q<{ id: string }>(
      `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
         trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
       select 'acme', $1, d.id, 1, $2, 64.2, 1, current_date - 2, 1, '411111', '4242', now() - interval '1 hour',
         now() + interval '71 hours'
       from cases.alert_descriptors d where d.merchant_id = $1 and d.mid_id is not null order by d.id desc limit 1
       returning id`,
      [A1, orderId],
    )) as [{ id: string }];
    const alertId = Number(id);
    const { context, page } = await open('acme', 'merchant.admin', '/alerts');
    try {
      await page.getByTestId('alerts-grid').waitFor();
      await page.getByTestId('alerts-search').fill(orderId);
      await page.getByTestId('alerts-grid').getByText(orderId, { exact: true }).first().waitFor();
      const dialog = page.getByTestId('mark-outcome-dialog');
      await clickUntil(page.getByTestId(`mark-${alertId}`), dialog);
      await dialog.getByTestId('outcome-select').selectOption({ label: 'Refunded' });
      await dialog.locator('input[name="refund_id"]').fill('RF-EMB-1');
      await dialog.locator('input[name="customer_name"]').fill('Jamie Doe');
      await dialog.getByTestId('mark-outcome-submit').click();
      await toast(page, `Alert record ${alertId} has been marked.`);
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId(`complete-${alertId}`).click();
      await page.getByTestId('confirm-completion-dialog').waitFor();
      await page.getByTestId('confirm-completion').click();
      await toast(page, `Alert record ${alertId} has been completed.`);
      await page.getByTestId(`completed-${alertId}`).waitFor();
      const stored = await q(
        'select outcome_id, refund_id, completed, completed_username from cases.alerts where id = $1',
        [alertId],
      );
      expect(stored).toEqual([
        { outcome_id: 1, refund_id: 'RF-EMB-1', completed: true, completed_username: 'merchant.admin' },
      ]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('saved views: save the filtered list, sign in again, reopen it', async () => {
    const { context, page } = await open('acme', 'manager', '/chargebacks');
    try {
      await page.getByTestId('case-list-chargebacks').waitFor();
      await waitRows(page);
      await page.getByTestId('filter-button').click();
      await page.getByTestId('panel-primary').click();
      await poll(() => new URL(page.url()).searchParams.get('panel')).toBe('primary');
      await page.getByTestId('filter-panel').getByRole('button', { name: 'Close' }).click();
      await page.locator('.ag-header-cell[col-id="case_no"] .ag-header-cell-label').click();
      await poll(() => new URL(page.url()).searchParams.get('sort_by')).toBe('case_no');
      const saved = new URL(page.url()).search;
      await poll(() => firstCell(page, 'id').textContent()).toBeTruthy();
      const first = await firstCell(page, 'id').textContent();

      await page.getByTestId('views-menu').click();
      await page.getByTestId('save-view').click();
      await page.getByLabel('View name').fill('Embedded primary by case number');
      await page.getByTestId('save-view-submit').click();
      await page.getByTestId('save-view-dialog').waitFor({ state: 'detached' });

      await page.getByTestId('sign-out').click();
      await page.getByTestId('sign-in-form').waitFor();
      await context.clearCookies();
      await signInToShell(page, world, 'acme', 'manager', undefined, '/chargebacks');
      await page.getByTestId('case-list-chargebacks').waitFor();
      await waitRows(page);
      expect(new URL(page.url()).search).toBe('');
      await page.getByTestId('views-menu').click();
      await page.getByTestId('saved-view').filter({ hasText: 'Embedded primary by case number' }).click();
      await poll(() => new URL(page.url()).search).toBe(saved);
      await poll(() => firstCell(page, 'id').textContent()).toBe(first);
      await poll(() => page.getByTestId('filter-button').textContent()).toBe('Filter: Primary Cycle');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('reports: /reports redraws for a chosen date range', async () => {
    const { context, page } = await open('acme', 'admin', '/reports');
    try {
      await page.getByTestId('reports').waitFor();
      await page.getByTestId('report-card-type-drawn').waitFor({ timeout: 30_000 });
      const range = page.getByTestId('filter-range');
      const to = await range.getByLabel('To date').inputValue();
      const from = `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`;
      const asked = page.waitForRequest(
        (r) =>
          r.url().includes('/reports/card-type') &&
          new URL(r.url()).searchParams.get('date_range') === `${from}|${to}`,
        { timeout: 30_000 },
      );
      await range.getByLabel('From date').fill(from);
      const request = await asked;
      expect((await request.response())?.status()).toBe(200);
      await page.getByTestId('report-card-type-drawn').waitFor({ timeout: 30_000 });
      await page.getByTestId('win-rate-row').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'embedded-reports-range');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('case builder: the four steps to a submitted representment, compiled and transported', async () => {
    const invoice = join(dir, 'invoice.jpg');
    const pod = join(dir, 'delivery.jpg');
    writeFileSync(invoice, flatJpeg(640, 480));
    writeFileSync(pod, flatJpeg(480, 640));
    const { context, page } = await open('acme', 'manager', '/case-management');
    try {
      await page.getByTestId('case-list-case-management').waitFor();
      await newTab(page);
      const icon = page
        .getByTestId('case-grid')
        .locator('[data-testid^="builder-icon-"]:not([disabled])')
        .first();
      await icon.waitFor({ timeout: 30_000 });
      const caseId = Number((await icon.getAttribute('data-testid'))!.replace('builder-icon-', ''));
      // That case's icon (the grid may redraw between the two calls, and `first()` is looked up again).
      await page.getByTestId(`builder-icon-${caseId}`).click();
      const dialog = page.getByTestId('case-builder-dialog');
      await dialog.getByTestId('builder-group-1').waitFor();
      const next = dialog.getByRole('button', { name: 'Save & Continue' });
      await dialog.locator('#builder-sale-type').selectOption({ label: 'Ecommerce' });
      await dialog.locator('#builder-product').selectOption({ label: 'Trail Running Shoes: men, size 9-12' });
      await dialog.getByTestId('is_shippable-yes').click();
      await dialog.locator('#builder-field-11').fill('Jane');
      await dialog.locator('#builder-field-12').fill('Doe');
      await dialog.locator('#builder-field-10').fill('jane.doe@example.com');
      await dialog.locator('#builder-field-14').fill('ORD-77121');
      await dialog.locator('#builder-field-51').fill('2026-01-15');
      await dialog.locator('#builder-field-53').fill('129.99');
      await dialog.locator('#builder-field-9').fill('Customer called to confirm delivery.');
      await poll(() => next.isDisabled()).toBe(false);
      await next.click();
      await dialog.getByTestId('builder-group-3').waitFor();
      await dialog.locator('#builder-field-70').fill('12 Harbour Road');
      await dialog.locator('#builder-field-71').fill('Portland');
      await dialog.locator('#builder-field-73').fill('04101');
      await dialog.locator('#builder-field-75').fill('1Z999AA10123456784');
      await dialog.locator('#builder-field-66').fill('0927');
      await dialog.locator('#builder-field-80').fill('203.0.113.7');
      await poll(() => next.isDisabled()).toBe(false);
      await next.click();
      await dialog.getByTestId('doc-type-2').waitFor();
      const input = dialog.getByTestId('builder-file-input');
      await dialog.locator('#builder-doc-type').selectOption({ label: 'Invoice / Receipt' });
      await input.setInputFiles(invoice);
      await dialog.locator('#builder-doc-type').selectOption({ label: 'Proof of Delivery' });
      await input.setInputFiles(pod);
      await poll(() => dialog.getByTestId('builder-staged').locator('tbody tr').count()).toBe(2);
      await next.click();
      const summary = dialog.getByTestId('builder-summary');
      await summary.waitFor();
      expect(await summary.getByTestId('summary-customer').textContent()).toBe('Jane Doe');
      await screenshot(page, 'embedded-case-builder-summary');
      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      const confirm = page.getByTestId('builder-submit-confirm');
      await confirm.getByRole('button', { name: 'Submit', exact: true }).click();
      await poll(() => page.getByTestId('result-dialog').textContent(), 30_000).toContain(
        BUILDER_MESSAGES.submitted,
      );
      const docs = await q<{ filename: string }>(
        `select d.filename from docs.representment_documents d
           join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
        [caseId],
      );
      expect(docs.map((d) => d.filename)).toEqual([
        `case-summary-${caseId}.pdf`,
        'invoice.jpg',
        'delivery.jpg',
      ]);
      await poll(() => statusOf(caseId), 90_000).toBe(CASE_STATUS.TransportCompleted);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('CE 3.0 remedy: the five steps from the upload modal to Evidence Submitted Successfully', async () => {
    const [c] = await q<{ id: number; case_no: string; date_post: string }>(
      `select c.id::int as id, c.case_no, to_char(c.date_post, 'YYYY-MM-DD') as date_post
       from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id
       where c.tenant_id = 'acme' and c.card_type_id = 1 and r.code = '10.4' and c.cycle_id = 1 and c.status_id = 1
         and c.merchant_id = $1 and c.assigned_user_id is null
       order by c.date_post desc, c.id limit 1`,
      [demoMerchantId(ACME, 'merchantA1')],
    );
    expect(c).toBeDefined();
    const shift = (date: string, days: number) =>
      new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    const { context, page } = await open('acme', 'manager', '/case-management');
    try {
      await page.getByTestId('case-list-case-management').waitFor();
      await page.getByLabel('Search cases').fill(c!.case_no);
      const row = page.getByTestId('case-grid').locator(`.ag-row[row-id="${c!.id}"]`).first();
      await row.waitFor({ timeout: 30_000 });
      await row.getByTestId('doc-upload').first().click();
      const modal = page.getByTestId('upload-representment-modal');
      await modal.getByTestId('remedy-start').click();
      const w = page.getByTestId('remedy-wizard');
      const primary = w.getByTestId('remedy-primary');
      const step = (title: string) =>
        poll(() => w.getByTestId('remedy-step-title').textContent()).toBe(title);
      const txn = async (t: { id: string; amount: string; date: string }) => {
        await w.getByTestId('remedy-txn-id').fill(t.id);
        await w.getByTestId('remedy-txn-amount').fill(t.amount);
        await w.getByTestId('remedy-txn-currency').selectOption('USD');
        await w.getByTestId('remedy-txn-date').fill(t.date);
        await w.getByTestId('remedy-txn-merch-or-serv').selectOption('Merchandise');
        await w.getByTestId('remedy-txn-delivery-status').selectOption('D');
        await w.getByTestId('remedy-txn-tracking').fill('1Z999AA10123456785');
        await w.getByTestId('remedy-txn-description').fill('Running shoes');
        await poll(() => primary.isDisabled()).toBe(false);
        await primary.click();
      };
      await w.getByTestId('remedy-provided-date').fill(shift(new Date().toISOString().slice(0, 10), 30));
      await w.getByTestId('remedy-details-merch-or-serv').selectOption('Merchandise');
      await w.getByTestId('remedy-details-delivery-status').selectOption('D');
      await w.getByTestId('remedy-details-tracking').fill('1Z999AA10123456784');
      await w.getByTestId('remedy-details-description').fill('Running shoes, size 42');
      await poll(() => primary.isDisabled()).toBe(false);
      await primary.click();
      await step('Step 2 of 5: Undisputed Transaction 1');
      const window = undisputedDateWindow(c!.date_post);
      expect(await w.getByTestId('remedy-txn-date').getAttribute('min')).toBe(window.from);
      await txn({ id: '74123456789012345678901', amount: '49.99', date: shift(c!.date_post, 150) });
      await step('Step 3 of 5: Undisputed Transaction 2');
      await txn({ id: '381234567890123', amount: '120.00', date: shift(c!.date_post, 300) });
      await step('Step 4 of 5: Matching Evidence');
      await w.getByTestId('remedy-match-on-ip').click();
      await w.getByTestId('remedy-match-ip').fill('203.0.113.24');
      await w.getByTestId('remedy-match-on-deviceId').click();
      await w.getByTestId('remedy-match-deviceId').fill('DEV-7F3A-22B1');
      await poll(() => primary.isDisabled()).toBe(false);
      await primary.click();
      await step('Step 5 of 5: Confirmation');
      await w.getByTestId('remedy-certify').click();
      await poll(() => primary.isDisabled()).toBe(false);
      await primary.click();
      await w.getByTestId('remedy-success').waitFor({ timeout: 30_000 });
      expect(await w.getByTestId('remedy-success').textContent()).toBe(REMEDY_MESSAGES.success);
      await screenshot(page, 'embedded-remedy-success');
      const submissions = await q<{ state: string }>(
        `select state from cases.remedy_submissions where case_id = $1`,
        [c!.id],
      );
      expect(submissions).toEqual([{ state: 'submitted' }]);
      const docs = await q<{ filename: string }>(
        `select d.filename from docs.representment_documents d
           join docs.representment_versions v on v.id = d.version_id where v.case_id = $1`,
        [c!.id],
      );
      expect(docs).toEqual([{ filename: `ce3-remedy-${c!.id}.pdf` }]);
    } finally {
      await context.close();
    }
  }, 150_000);

  it('case updater: a CSV of verdicts runs as a job and reports per row', async () => {
    const [c] = await q<{ id: string; verdict_id: number }>(
      `select id, verdict_id from cases.cases where tenant_id = 'acme' order by id limit 1`,
    );
    const verdict = c!.verdict_id === 4 ? 'Loss' : 'Win';
    const { context, page } = await open('acme', 'manager', '/case-updater');
    try {
      await page.getByTestId('case-updater').waitFor();
      await page.getByRole('button', { name: 'Upload CSV' }).click();
      const dialog = page.getByTestId('updater-upload-dialog');
      await dialog.getByTestId('csv-file-input').setInputFiles({
        name: 'cases.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`ID,Verdict\n${c!.id},${verdict}\n42,Maybe\n`),
      });
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await toast(page, 'CSV successfully uploaded.');
      await poll(() => page.getByTestId('updater-uploads').textContent(), 60_000).toMatch(
        /Complete.*1 of 2 row\(s\) updated\./,
      );
      const [after] = await q<{ verdict_id: number }>('select verdict_id from cases.cases where id = $1', [
        c!.id,
      ]);
      expect(after!.verdict_id).toBe(verdict === 'Win' ? 4 : 5);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('webhooks: a merchant admin registers an endpoint and a test event is delivered', async () => {
    const { context, page } = await open('acme', 'merchant.admin', '/webhooks');
    try {
      await page.getByTestId('webhooks').waitFor();
      await page.getByRole('button', { name: 'Register Endpoint' }).click();
      const dialog = page.getByTestId('register-webhook-dialog');
      // Plain http to loopback: allowed in development, as `npm start` runs.
      await dialog.locator('input[name="url"]').fill(`${receiver.url}/portal`);
      await dialog.locator('input[name="description"]').fill('Embedded back office');
      await dialog.getByTestId('event-CASE_STATUS_CHANGED').click();
      await dialog.getByRole('button', { name: 'Register' }).click();
      const secretDialog = page.getByTestId('webhook-secret-dialog');
      expect((await secretDialog.getByTestId('webhook-secret').textContent())!.trim()).toMatch(/^whsec_/);
      await secretDialog.getByRole('button', { name: 'Done' }).click();
      await poll(() => page.getByTestId('webhook-endpoints').textContent()).toContain(
        `${receiver.url}/portal`,
      );

      await page.getByRole('button', { name: 'Send Test Event' }).click();
      await toast(page, 'A test event was queued for delivery.');
      // Case status changes of the merchant (the worker still transports earlier uploads) may come too.
      const isTest = (body: string) => (JSON.parse(body) as { type: string }).type === 'WEBHOOK_TEST';
      await poll(() => receiver.received.filter((r) => isTest(r.body)).length, 60_000).toBe(1);
      expect(JSON.parse(receiver.received.find((r) => isTest(r.body))!.body)).toMatchObject({
        tenant: 'acme',
      });
      const grid = page.getByTestId('webhook-deliveries-grid');
      const refresh = page.getByTestId('webhook-deliveries').getByRole('button', { name: 'Refresh' });
      /** The state of the test event's delivery, read after a refresh (the worker finishes in the background). */
      const testDelivery = async () => {
        await refresh.click();
        await networkQuiet(page);
        const cell = grid
          .locator('.ag-row [col-id="event_type"]')
          .filter({ hasText: 'WEBHOOK_TEST' })
          .first();
        if (!(await cell.count())) return null;
        const rowId = await cell.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id');
        return grid.locator(`.ag-row[row-id="${rowId}"] [col-id="state"]`).first().textContent();
      };
      await poll(testDelivery, 30_000).toBe('succeeded');
      await screenshot(page, 'embedded-webhooks');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('bulk close: a manager closes the cases matching criteria; the in-process worker runs the job', async () => {
    // The smallest group of open cases with a currency, cycle and reason code: the job closes exactly those.
    const [crit] = await q<{ currency_id: number; cycle_id: number; reason_code_id: number; n: number }>(
      `select dispute_currency_id as currency_id, cycle_id, reason_code_id, count(*)::int as n from cases.cases
       where tenant_id = 'acme' and status_id = 1 group by 1, 2, 3 order by n, 1, 2, 3 limit 1`,
    );
    const { context, page } = await open('acme', 'manager', '/chargebacks');
    try {
      await page.getByTestId('bulk-close-open').click();
      const panel = page.getByTestId('bulk-panel-auto_accept');
      await panel.waitFor();
      await panel.getByTestId('criterion-amt-from').fill('0');
      await panel.getByTestId('criterion-amt-to').fill('100000');
      for (const [key, value] of [
        ['currency_id', crit!.currency_id],
        ['cycle_id', crit!.cycle_id],
        ['reason_code_id', crit!.reason_code_id],
      ] as const) {
        const select = panel.getByTestId(`criterion-${key}`);
        await poll(() => select.locator('option').count()).toBeGreaterThan(1);
        await select.selectOption(String(value));
      }
      await poll(() => panel.getByTestId('applied-criteria').locator('> *').count()).toBe(4);
      await panel.getByTestId('bulk-run-action').click();
      const confirm = page.getByTestId('confirm-action-dialog');
      await poll(() => confirm.getByTestId('confirm-action-count').textContent()).toBe(
        BULK_MESSAGES.affects(crit!.n),
      );
      await confirm.getByTestId('confirm-action-accept').click();
      await panel.getByText(BULK_MESSAGES.submitted).waitFor();
      await poll(
        async () =>
          (
            await q<{ state: string; records_num: number }>(
              `select state, records_num from cases.bulk_jobs where kind = 'auto_accept' order by id desc limit 1`,
            )
          )[0],
        60_000,
      ).toEqual({ state: 'done', records_num: crit!.n });
      const [left] = await q<{ n: number }>(
        `select count(*)::int as n from cases.cases where tenant_id = 'acme' and status_id = 1
         and dispute_currency_id = $1 and cycle_id = $2 and reason_code_id = $3`,
        [crit!.currency_id, crit!.cycle_id, crit!.reason_code_id],
      );
      expect(left!.n).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
