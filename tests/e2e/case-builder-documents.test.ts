/// <reference lib="dom" />
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILDER_MESSAGES as M } from '@portal/contracts';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { screenshot } from '../support/browser';
import { resultText } from '../support/e2e-case-grid';
import { makePdf } from '../support/representment-upload';
import { apiAs, signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Issue 29 item 4b: a manager searches a New case from the default 'Working
 * Cases' tab and finds the builder's wrench there (a Working case not
 * assigned to them shows it disabled with its reason); step 3 takes a PDF
 * beside a JPG (as the representment upload does, with the same server
 * checks), step 4 lists the attached documents, and the submission stores
 * both with their real types.
 */
const world = useWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });
const dir = mkdtempSync(join(tmpdir(), 'portal-builder-docs-'));

interface ListRow {
  id: number;
  case_no: string;
}

describe('case builder: Working Cases, PDF documents, summary (issue 29)', () => {
  it('opens from Working Cases, takes a PDF, lists the documents in the summary and submits', async () => {
    const invoice = join(dir, 'invoice.jpg');
    const statement = join(dir, 'delivery-statement.pdf');
    writeFileSync(invoice, flatJpeg(640, 480));
    writeFileSync(statement, await makePdf(2));
    const api = await apiAs(world, 'acme', 'manager');
    // The case the New tab lists first (its MID's merchant has the demo products).
    const [target] = (
      await api<{ data: ListRow[] }>('/cm/cases?intent=case-management&filter_group=new_cases&limit=1')
    ).data;
    // A Working case (status 2) nobody is assigned to (made from another New case, whatever the seed holds).
    const { rows: made } = await world.t.db.query<{ id: string; case_no: string }>(
      `update cases.cases set status_id = 2, assigned_user_id = null
        where id = (select id from cases.cases where tenant_id = 'acme' and status_id = 1 and id <> $1
                     order by id desc limit 1)
        returning id, case_no`,
      [target!.id],
    );
    const working = { id: Number(made[0]!.id), case_no: made[0]!.case_no };

    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
      await page.getByTestId('case-list-case-management').waitFor();
      // The default tab is Working Cases.
      expect(new URL(page.url()).searchParams.get('tab') ?? 'working_cases').toBe('working_cases');
      const grid = page.getByTestId('case-grid');

      // A Working case not assigned to the manager: the wrench shows, disabled, and says why.
      await page.getByLabel('Search cases').fill(working.case_no);
      const disabled = grid.getByTestId(`builder-icon-${working.id}`);
      await disabled.waitFor();
      expect(await disabled.isDisabled()).toBe(true);
      expect(await disabled.getAttribute('title')).toBe('Case Builder (assign the case to yourself first)');

      // The New case, searched from Working Cases: the wrench is there and opens the builder.
      await page.getByLabel('Search cases').fill(target!.case_no);
      const icon = grid.getByTestId(`builder-icon-${target!.id}`);
      await icon.waitFor();
      expect(await icon.isDisabled()).toBe(false);
      expect(new URL(page.url()).searchParams.get('tab') ?? 'working_cases').toBe('working_cases');
      await screenshot(page, 'i29-builder-working-cases');
      await icon.click();

      const dialog = page.getByTestId('case-builder-dialog');
      await dialog.getByTestId('builder-group-1').waitFor();
      const next = dialog.getByRole('button', { name: 'Save & Continue' });
      await dialog.locator('#builder-sale-type').selectOption({ label: 'Ecommerce' });
      await dialog.locator('#builder-product').selectOption({ label: 'Trail Running Shoes: men, size 9-12' });
      await dialog.getByTestId('is_shippable-yes').click();
      await dialog.locator('#builder-field-11').fill('Jane');
      await dialog.locator('#builder-field-12').fill('Doe');
      await dialog.locator('#builder-field-10').fill('jane.doe@example.com');
      await dialog.locator('#builder-field-14').fill('ORD-77122');
      await dialog.locator('#builder-field-51').fill('2026-01-15');
      await dialog.locator('#builder-field-53').fill('129.99');
      await expect.poll(() => next.isDisabled()).toBe(false);
      await next.click();
      await dialog.getByTestId('builder-group-3').waitFor();
      await dialog.locator('#builder-field-70').fill('12 Harbour Road');
      await dialog.locator('#builder-field-71').fill('Portland');
      await dialog.locator('#builder-field-73').fill('04101');
      await dialog.locator('#builder-field-75').fill('1Z999AA10123456784');
      await dialog.locator('#builder-field-66').fill('0927');
      await dialog.locator('#builder-field-80').fill('203.0.113.7');
      await expect.poll(() => next.isDisabled()).toBe(false);
      await next.click();

      // Step 3: JPG and PDF, as the representment upload; anything else is refused with the upload's text.
      await dialog.getByTestId('doc-type-2').waitFor();
      const input = dialog.getByTestId('builder-file-input');
      expect(await input.getAttribute('accept')).toBe('image/jpeg,application/pdf');
      await dialog.locator('#builder-doc-type').selectOption({ label: 'Invoice / Receipt' });
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect.poll(() => dialog.getByTestId('builder-doc-error').textContent()).toBe(M.onlyJpgOrPdf(10));
      await input.setInputFiles(invoice);
      await dialog.locator('#builder-doc-type').selectOption({ label: 'Proof of Delivery' });
      await input.setInputFiles(statement);
      const staged = dialog.getByTestId('builder-staged').locator('tbody tr');
      await expect.poll(() => staged.count()).toBe(2);
      expect(await staged.nth(1).textContent()).toContain('delivery-statement.pdf');
      expect(await staged.nth(1).textContent()).toContain('PDF');
      await screenshot(page, 'i29-builder-documents-pdf');
      await next.click();

      // Step 4: the summary lists the attached documents in order.
      const docs = dialog.getByTestId('summary-documents');
      await docs.waitFor();
      const rows = docs.locator('tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).textContent()).toMatch(/^1invoice\.jpgInvoice \/ ReceiptJPG\d+ KB$/);
      expect(await rows.nth(1).textContent()).toMatch(/^2delivery-statement\.pdfProof of DeliveryPDF\d+ KB$/);
      await screenshot(page, 'i29-builder-summary-documents');

      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      await page
        .getByTestId('builder-submit-confirm')
        .getByRole('button', { name: 'Submit', exact: true })
        .click();
      expect(await resultText(page, 30_000)).toContain(M.submitted);
      const stored = await world.t.db.query<{ filename: string; content_type: string; pages: number }>(
        `select d.filename, d.content_type, d.pages from docs.representment_documents d
           join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
        [target!.id],
      );
      expect(stored.rows.map((r) => [r.filename, r.content_type, r.pages])).toEqual([
        [`case-summary-${target!.id}.pdf`, 'application/pdf', expect.any(Number)],
        ['invoice.jpg', 'image/jpeg', 1],
        ['delivery-statement.pdf', 'application/pdf', 2],
      ]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
