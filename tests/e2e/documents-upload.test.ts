/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPRESENTMENT_MESSAGES as M } from '@portal/contracts';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';
import { makePdf } from '../support/representment-upload';

/**
 * The Upload representment modal (spec 2 §2.6, §4, §5) in Chromium against
 * the full stack: a manager opens it from the Document column of the case
 * management list, the case is held (case patch 16), a PDF and a JPEG are
 * staged (with the client-side checks), reordered and uploaded; the row then
 * shows 'Doc(s) compiling...' and the case is DocCompiling (6).
 */
let world: WebWorld;
const dir = mkdtempSync(join(tmpdir(), 'portal-upload-'));

beforeAll(async () => {
  world = await startWebWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const grid = (page: Page) => page.getByTestId('case-grid');
const db = () => world.t.db;
const statusOf = async (id: number) =>
  Number(
    (await db().query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );
const markOf = async (id: number) =>
  (
    await db().query<{ type: string; status: number }>(
      `select type, status from cases.case_marks where case_id = $1`,
      [id],
    )
  ).rows[0] ?? null;

describe('upload representment (manager)', () => {
  it('uploads a PDF and a JPEG from the Document column and the case starts compiling', async () => {
    const pdf = await makePdf(2);
    const jpg = flatJpeg(600, 400);
    const pdfPath = join(dir, 'evidence.pdf');
    const jpgPath = join(dir, 'receipt.jpg');
    const badPath = join(dir, 'broken.jpg');
    writeFileSync(pdfPath, pdf);
    writeFileSync(jpgPath, jpg);
    writeFileSync(badPath, jpg.subarray(0, jpg.length - 2));

    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('case-list-case-management').waitFor();
    await page.getByTestId('tab-new_cases').click();
    const upload = grid(page).getByTestId('doc-upload').first();
    await upload.waitFor({ timeout: 20_000 });
    const rowId = Number(await upload.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id'));
    expect(rowId).toBeGreaterThan(0);
    expect(await upload.getAttribute('title')).toBe('Upload Representment');

    await upload.click();
    const modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await expect
      .poll(() => modal.getByRole('heading').first().textContent())
      .toBe(`Upload Case Document (${rowId})`);
    // Opening holds the case (spec 2 §4 step 1).
    await expect.poll(() => markOf(rowId)).toMatchObject({ type: 'upload', status: 16 });
    // The merchant's templates (seeded by the template library), or 'No basic templates available.'.
    await modal.getByTestId('upload-templates').or(modal.getByTestId('upload-no-templates')).waitFor();

    // Client-side checks, with the server's texts.
    const input = modal.getByTestId('upload-file-input');
    await input.setInputFiles(badPath);
    await expect.poll(() => modal.getByTestId('upload-error').textContent()).toContain(M.corruptJpg);
    const items = modal.getByTestId('upload-staged-item');
    await input.setInputFiles(pdfPath);
    await expect.poll(() => items.count()).toBe(1);
    await input.setInputFiles(jpgPath);
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(() => items.nth(0).textContent()).toContain('evidence.pdf');
    // Reorder: the JPEG first.
    await items.nth(1).getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => items.nth(0).textContent()).toContain('receipt.jpg');
    await modal.getByTestId('upload-comment').fill('Signed receipt and delivery proof');
    await modal.getByTestId('upload-qc-review').waitFor();
    await expect.poll(() => modal.getByTestId('upload-totals').textContent()).toContain('3 page(s)');
    const shot = await screenshot(page, 'documents-upload-modal');
    expect(shot).toMatch(/documents-upload-modal\.png$/);

    await modal.getByTestId('upload-submit').click();
    const result = page.getByTestId('result-dialog');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.textContent()).toContain(M.success);
    expect(await result.textContent()).toContain(M.successTitle);

    // The case is compiling (no worker in this world), its documents stored in order with their hashes.
    await expect.poll(() => statusOf(rowId)).toBe(6);
    const { rows } = await db().query<{ filename: string; sha256: string; pages: number }>(
      `select d.filename, d.sha256, d.pages from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
      [rowId],
    );
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(rows).toEqual([
      { filename: 'receipt.jpg', sha256: sha(jpg), pages: 1 },
      { filename: 'evidence.pdf', sha256: sha(pdf), pages: 2 },
    ]);
    // The mark is gone with the upload; the row shows the compiling icon after the list refresh.
    await page.getByTestId('tab-in_progress').click();
    const compiling = grid(page).locator(`.ag-row[row-id="${rowId}"]`).getByTestId('doc-compiling').first();
    await compiling.waitFor({ timeout: 20_000 });
    expect(await compiling.getAttribute('title')).toBe(M.tooltipCompiling);
  }, 90_000);

  it('closing with staged files asks first; Discard releases the case unchanged', async () => {
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    const upload = grid(page).getByTestId('doc-upload').first();
    await upload.waitFor({ timeout: 20_000 });
    const rowId = Number(await upload.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id'));
    await upload.click();
    const modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await expect.poll(() => markOf(rowId)).toMatchObject({ status: 16 });
    await modal.getByTestId('upload-file-input').setInputFiles(join(dir, 'evidence.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count()).toBe(1);
    await modal.getByRole('button', { name: 'Close' }).click();
    const discard = page.getByTestId('upload-discard');
    await discard.waitFor();
    expect(await discard.textContent()).toContain(M.discardTitle);
    expect(await discard.textContent()).toContain(M.discardText);
    await screenshot(page, 'documents-upload-discard');
    await discard.getByRole('button', { name: M.discard }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => markOf(rowId)).toBeNull();
    expect(await statusOf(rowId)).toBe(1);
  }, 60_000);
});
