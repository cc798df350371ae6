/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  EVIDENCE_MESSAGES as E,
  REPRESENTMENT_MESSAGES as M,
  type CompiledPacket,
} from '@portal/contracts';
import { JobWorker } from '@portal/jobs';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { JOBS } from '../../services/runner/src/stack';
import { screenshot } from '../support/browser';
import { evidencePdf, TEST_PAN } from '../support/evidence-pdf';
import {
  apiAs,
  goInApp,
  networkQuiet,
  signInToShell,
  startWebWorld,
  type WebWorld,
} from '../support/e2e-web';

/**
 * Issue 34's 'Done when' in Chromium against the full stack: a manager
 * stages a PDF that shows a card number and a JPEG in the upload modal,
 * reorders them, previews the packet (compiled and checked by the server,
 * drawn with pdf.js), removes a page, sees the card-number finding, masks it,
 * accepts the remaining warning with a note and uploads; once compiled, the
 * packet's SHA-256 and its pages (document and hash of each) equal the
 * preview's, and the QC viewer labels each page by its document.
 */
let world: WebWorld;
const dir = mkdtempSync(join(tmpdir(), 'portal-evidence-'));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const statusOf = async (id: number) =>
  Number(
    (await world.t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );

async function uploadableRow(page: Page) {
  const grid = page.getByTestId('case-grid');
  await grid.getByTestId('doc-upload').first().waitFor({ timeout: 20_000 });
  await networkQuiet(page);
  const ids = (
    await grid
      .locator('.ag-row[row-id]')
      .filter({ has: page.getByTestId('doc-upload') })
      .evaluateAll((els) => els.map((e) => e.getAttribute('row-id')))
  ).map(Number);
  for (const rowId of ids) {
    const marked = await world.t.db.query(`select 1 from cases.case_marks where case_id = $1`, [rowId]);
    const takes: readonly number[] = [CASE_STATUS.New, CASE_STATUS.Working];
    if (!takes.includes(await statusOf(rowId)) || marked.rows.length) continue;
    return { rowId, upload: grid.locator(`.ag-row[row-id="${rowId}"]`).getByTestId('doc-upload').first() };
  }
  throw new Error('no New Cases row still takes an upload unheld');
}

describe('evidence preview (manager)', () => {
  beforeAll(async () => {
    world = await startWebWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('previews, arranges, masks the card number and uploads the packet it showed', async () => {
    const pdf = await evidencePdf([
      ['Invoice 1001', `Paid with card ${TEST_PAN}`],
      null,
      ['Delivered on 2099-01-02', 'Signed by the cardholder'],
    ]);
    const jpg = flatJpeg(600, 400, 70);
    const pdfPath = join(dir, 'invoice.pdf');
    const jpgPath = join(dir, 'receipt.jpg');
    writeFileSync(pdfPath, pdf);
    writeFileSync(jpgPath, jpg);

    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('case-list-case-management').waitFor();
    await page.getByTestId('tab-new_cases').click();
    const { upload, rowId } = await uploadableRow(page);
    await upload.click();
    const modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    const input = modal.getByTestId('upload-file-input');
    const items = modal.getByTestId('upload-staged-item');
    await input.setInputFiles(pdfPath);
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(1);
    await input.setInputFiles(jpgPath);
    await expect.poll(() => items.count()).toBe(2);
    // Reorder: the JPEG first.
    await items.nth(1).getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => items.nth(0).textContent()).toContain('receipt.jpg');

    // Preview: the server's packet, drawn with pdf.js, each page labelled by its document.
    await modal.getByTestId('upload-preview').click();
    const preview = modal.getByTestId('packet-preview');
    const thumbs = preview.getByTestId('packet-thumb');
    await expect.poll(() => thumbs.count(), { timeout: 30_000 }).toBe(4);
    await preview
      .locator('[data-testid="packet-thumb-canvas"][data-drawn="true"]')
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await preview.getByTestId('packet-page-label').allTextContents()).toEqual([
      '1. receipt.jpg p.1',
      '2. invoice.pdf p.1',
      '3. invoice.pdf p.2',
      '4. invoice.pdf p.3',
    ]);
    const checks = preview.getByTestId('packet-check');
    await expect.poll(() => checks.first().textContent()).toContain(E.pan(2, '•••• 1111'));
    await expect.poll(() => preview.locator('[data-code="blank"]').count()).toBe(1);

    // Remove the blank page (page 3 of the packet).
    await thumbs.nth(2).click();
    await expect
      .poll(() => preview.getByTestId('packet-current-label').textContent())
      .toContain('invoice.pdf p.2');
    await preview.getByTestId('packet-remove').click();
    await expect.poll(() => thumbs.count(), { timeout: 30_000 }).toBe(3);
    await expect.poll(() => preview.locator('[data-code="blank"]').count()).toBe(0);

    // Upload is refused while the card number shows.
    await modal.getByTestId('upload-submit').click();
    await expect.poll(() => modal.getByTestId('upload-error').textContent()).toBe(E.pan(2, '•••• 1111'));

    // Mask it: the server redraws the page with a box; the finding goes, the page says it is masked.
    await preview.getByTestId('packet-mask').click();
    await expect.poll(() => preview.locator('[data-code="pan"]').count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(() => preview.locator('[data-code="date_after_due"]').count(), { timeout: 30_000 })
      .toBe(1);
    await thumbs.nth(1).click();
    await preview
      .locator('[data-testid="packet-page-canvas"][data-drawn="true"]')
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'evidence-preview-masked');

    // The warning needs a note before the upload goes.
    await modal.getByTestId('upload-submit').click();
    await expect.poll(() => modal.getByTestId('upload-error').textContent()).toBe(E.acceptWarnings);
    await preview.getByTestId('packet-accept-note').fill('The carrier scan date is after the due date');
    const previewSha = ((await preview.getByTestId('packet-sha').textContent()) ?? '').replace(
      'Packet SHA-256 ',
      '',
    );
    expect(previewSha).toMatch(/^[0-9a-f]{64}$/);
    // Sent for Quality Review: the QC reviewer looks at the compiled packet below.
    await modal.getByTestId('upload-qc-review').click();
    await modal.getByTestId('upload-submit').click();
    await page.getByTestId('result-dialog').filter({ hasText: M.success }).waitFor({ timeout: 20_000 });

    // This world has no worker: one compiles the packet now.
    const worker = new JobWorker({
      db: world.t.db,
      env: world.t.env,
      log: world.t.deps.log,
      jobs: JOBS,
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
    try {
      await expect
        .poll(
          async () =>
            (
              await world.t.db.query<{ state: string }>(
                `select state from docs.representment_versions where case_id = $1`,
                [rowId],
              )
            ).rows[0]?.state,
          { timeout: 30_000 },
        )
        .toBe('compiled');
    } finally {
      await worker.stop(2);
    }
    const api = await apiAs(world, 'acme', 'manager');
    const compiled = await api<CompiledPacket>(`/docs/representment/${rowId}/packet`);
    // The compiled packet is the previewed one, byte for byte, page for page.
    expect(compiled.sha256).toBe(previewSha);
    expect(
      compiled.page_map.map((p) => [compiled.documents[p.document]!.sha256, p.source_page, p.masked]),
    ).toEqual([
      [sha(jpg), 0, false],
      [sha(pdf), 0, true],
      [sha(pdf), 2, false],
    ]);
    // The QC reviewer's viewer: each page labelled by its document, with that document's SHA-256.
    await goInApp(page, `/case-qc-review/view-case/${rowId}`);
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await page.getByTestId('representment-view-pages').click({ timeout: 20_000 });
    const viewer = page.getByTestId('compiled-packet');
    await viewer.getByTestId('packet-thumb').nth(2).waitFor({ timeout: 20_000 });
    expect(await viewer.getByTestId('packet-page-label').allTextContents()).toEqual([
      '1. receipt.jpg p.1',
      '2. invoice.pdf p.1',
      '3. invoice.pdf p.3',
    ]);
    await viewer.getByTestId('packet-thumb').nth(1).click();
    await expect
      .poll(() => viewer.getByTestId('packet-current-detail').textContent())
      .toBe(`Masked · SHA-256 ${sha(pdf)}`);
    await viewer
      .locator('[data-testid="packet-page-canvas"][data-drawn="true"]')
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'evidence-preview-qc-viewer');

    const history = await world.t.db.query<{ action: string }>(
      `select action from cases.case_history where case_id = $1 and action like 'Representment v1 uploaded%'`,
      [rowId],
    );
    expect(history.rows[0]!.action).toContain(
      E.acceptedHistory(1, 'The carrier scan date is after the due date'),
    );
  });
});
