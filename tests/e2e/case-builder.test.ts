/// <reference lib="dom" />
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILDER_MESSAGES as M } from '@portal/contracts';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { screenshot } from '../support/browser';
import { evidencePdf, TEST_PAN } from '../support/evidence-pdf';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * The case builder (spec 2 §2.7, §4, §5, §8) in Chromium against the full
 * stack with the job worker: a manager opens it from the builder icon of the
 * New tab, answers step 1 (sales method, product, shippable, customer and
 * transaction fields), step 2 (shipping and card), stages a PDF invoice with a
 * card number and a JPG in step 3, chooses a case with the same card as a
 * template in step 4, previews the packet and masks the card number (issue
 * 34), and submits: 'Successfully submitted representment.', the case
 * compiles, the previewed packet byte for byte, with the case summary first,
 * and goes on to the card network; the chosen case holds the copied answers.
 */
let world: WebWorld;
const dir = mkdtempSync(join(tmpdir(), 'portal-builder-'));
const db = () => world.t.db;
const statusOf = async (id: number) =>
  Number(
    (await db().query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );

describe('case builder (manager)', () => {
  beforeAll(async () => {
    world = await startWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('walks all four steps to a submitted representment', async () => {
    const invoice = join(dir, 'invoice.pdf');
    const pod = join(dir, 'delivery.jpg');
    writeFileSync(invoice, await evidencePdf([[`Paid with card ${TEST_PAN}`, 'Order ORD-77121']]));
    writeFileSync(pod, flatJpeg(480, 640));

    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('case-list-case-management').waitFor();
    // The New tab's own rows: the Working Cases rows before them show builder icons too (issue 29).
    const listed = page.waitForResponse((r) => /\/api\/cm\/cases\?.*filter_group=new_cases/.test(r.url()));
    await page.getByTestId('tab-new_cases').click();
    await listed;
    const icon = page
      .getByTestId('case-grid')
      .locator('[data-testid^="builder-icon-"]:not([disabled])')
      .first();
    await icon.waitFor({ timeout: 20_000 });
    const caseId = Number((await icon.getAttribute('data-testid'))!.replace('builder-icon-', ''));
    // A second open case with the same card: the template list of step 4 offers it.
    const twin = Number(
      (
        await db().query<{ id: number }>(
          `update cases.cases set cc_bin = src.cc_bin, cc_last_four = src.cc_last_four
             from (select cc_bin, cc_last_four, merchant_id from cases.cases where id = $1) src
            where cases.cases.id = (select id from cases.cases where tenant_id = 'acme' and status_id = 1
                                      and merchant_id = src.merchant_id and id <> $1 order by id desc limit 1)
            returning cases.cases.id`,
          [caseId],
        )
      ).rows[0]!.id,
    );

    await page.getByTestId(`builder-icon-${caseId}`).click();
    const dialog = page.getByTestId('case-builder-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('builder-group-1').waitFor();
    const next = dialog.getByRole('button', { name: 'Save & Continue' });
    // Step 1: nothing chosen yet, so Save & Continue waits.
    expect(await next.isDisabled()).toBe(true);
    await dialog.locator('#builder-sale-type').selectOption({ label: 'Ecommerce' });
    await dialog.locator('#builder-product').selectOption({ label: 'Trail Running Shoes: men, size 9-12' });
    // An existing product disables the new-product fields.
    expect(await dialog.locator('#builder-new-product').isDisabled()).toBe(true);
    await dialog.getByTestId('is_shippable-yes').click();
    await dialog.locator('#builder-field-11').fill('Jane');
    await dialog.locator('#builder-field-12').fill('Doe');
    await dialog.locator('#builder-field-10').fill('jane.doe@example.com');
    await dialog.locator('#builder-field-14').fill('ORD-77121');
    await dialog.locator('#builder-field-51').fill('2026-01-15');
    await dialog.locator('#builder-field-53').fill('129.99');
    await dialog.locator('#builder-field-9').fill('Customer called on 01/20 to confirm delivery.');
    expect(await dialog.locator('#builder-field-9').getAttribute('rows')).toBe('4');
    await expect.poll(() => next.isDisabled()).toBe(false);
    await screenshot(page, 'case-builder-step1');
    await next.click();

    // Step 2: shipping (shippable product), card (always), device/IP (ecommerce).
    await dialog.getByTestId('builder-group-3').waitFor();
    await dialog.getByTestId('builder-group-5').waitFor();
    expect(await next.isDisabled()).toBe(true);
    await dialog.locator('#builder-field-70').fill('12 Harbour Road');
    await dialog.locator('#builder-field-71').fill('Portland');
    await dialog.locator('#builder-field-73').fill('04101');
    await dialog.locator('#builder-field-75').fill('1Z999AA10123456784');
    await dialog.locator('#builder-field-66').fill('0927');
    expect(await dialog.locator('#builder-field-66').inputValue()).toBe('09/27');
    await dialog.locator('#builder-field-80').fill('203.0.113.7');
    await screenshot(page, 'case-builder-step2');
    await next.click();

    // Step 3: documents; a file without a document type is refused with the spec's text.
    await dialog.getByTestId('doc-type-2').waitFor();
    expect(await dialog.getByTestId('doc-type-1').textContent()).toContain('(required)');
    expect(await dialog.getByTestId('doc-type-2').textContent()).toContain('(required)');
    const input = dialog.getByTestId('builder-file-input');
    await input.setInputFiles(invoice);
    await expect.poll(() => dialog.getByTestId('builder-doc-error').textContent()).toBe(M.selectDocType);
    await dialog.locator('#builder-doc-type').selectOption({ label: 'Invoice / Receipt' });
    await input.setInputFiles(invoice);
    await dialog.locator('#builder-doc-type').selectOption({ label: 'Proof of Delivery' });
    await input.setInputFiles(pod);
    await expect.poll(() => dialog.getByTestId('builder-staged').locator('tbody tr').count()).toBe(2);
    await next.click();

    // Step 4: the summary and the template list.
    const summary = dialog.getByTestId('builder-summary');
    await summary.waitFor();
    expect(await summary.getByTestId('summary-customer').textContent()).toBe('Jane Doe');
    expect(await summary.getByTestId('summary-product').textContent()).toBe('Trail Running Shoes');
    expect(await summary.getByTestId('summary-sale-type').textContent()).toBe('Ecommerce');
    expect(await summary.textContent()).toContain('Customer called on 01/20 to confirm delivery.');
    expect(await summary.textContent()).toContain(M.templateAlert);
    expect(await summary.textContent()).toContain(M.templateHeading);
    const twinRow = summary.getByTestId('builder-related').locator('tr', { hasText: String(twin) });
    await twinRow.locator('label').first().click();
    await expect.poll(() => dialog.getByTestId('builder-last-updated').textContent()).toContain('by manager');
    const shot = await screenshot(page, 'case-builder-summary');
    expect(shot).toMatch(/case-builder-summary\.png$/);

    // Preview: the card number in the invoice blocks the packet until it is masked.
    await dialog.getByTestId('builder-preview').click();
    const preview = dialog.getByTestId('packet-preview');
    await expect
      .poll(() => preview.getByTestId('packet-check').allTextContents(), { timeout: 30_000 })
      .toContainEqual(expect.stringContaining('•••• 1111'));
    await preview.getByTestId('packet-mask').click();
    await expect
      .poll(async () => (await preview.getByTestId('packet-check').allTextContents()).join(' | '), {
        timeout: 30_000,
      })
      .not.toContain('•••• 1111');
    if (await preview.getByTestId('packet-accept-note').count())
      await preview.getByTestId('packet-accept-note').fill('Checked against the order');
    const previewSha = ((await preview.getByTestId('packet-sha').textContent()) ?? '').replace(
      'Packet SHA-256 ',
      '',
    );
    expect(previewSha).toMatch(/^[0-9a-f]{64}$/);
    await screenshot(page, 'case-builder-preview-masked');

    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    const confirm = page.getByTestId('builder-submit-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(M.submitTitle);
    await confirm.getByRole('button', { name: 'Submit', exact: true }).click();
    // The result closes itself after 2 s: waited for with its text, not read afterwards.
    await page.getByTestId('result-dialog').filter({ hasText: M.submitted }).waitFor({ timeout: 30_000 });

    // The representment: case summary first, then the documents in order; the case moves on as an upload does.
    const { rows } = await db().query<{ filename: string }>(
      `select d.filename from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
      [caseId],
    );
    expect(rows.map((r) => r.filename)).toEqual([
      `case-summary-${caseId}.pdf`,
      'invoice.pdf',
      'delivery.jpg',
    ]);
    await expect.poll(() => statusOf(caseId), { timeout: 30_000 }).toBe(10);
    const compiled = await db().query<{ compiled_sha256: string }>(
      `select compiled_sha256 from docs.representment_versions where case_id = $1`,
      [caseId],
    );
    expect(compiled.rows[0]!.compiled_sha256).toBe(previewSha);
    // The chosen case holds the copied answers (not the case's own facts).
    const copied = await db().query<{ field_id: number; value: string }>(
      `select field_id, value from builder.case_values where case_id = $1 and field_id in (11, 75, 14) order by field_id`,
      [twin],
    );
    expect(copied.rows.map((r) => [Number(r.field_id), r.value])).toEqual([
      [11, 'Jane'],
      [75, '1Z999AA10123456784'],
    ]);
  }, 180_000);
});
