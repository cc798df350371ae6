/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_STATUS, REPRESENTMENT_MESSAGES as M } from '@portal/contracts';
import { JobWorker } from '@portal/jobs';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { JOBS } from '../../services/runner/src/stack';
import { screenshot } from '../support/browser';
import {
  apiAs,
  clickUntil,
  networkQuiet,
  signInToShell,
  startWebWorld,
  type WebWorld,
} from '../support/e2e-web';
import { makePdf, postForm, type UploadLink } from '../support/representment-upload';

/**
 * The Upload representment modal (spec 2 §2.6, §4, §5) in Chromium against
 * the full stack: a manager opens it from the Document column of the case
 * management list, the case is held (case patch 16), a PDF and a JPEG are
 * staged (with the client-side checks), reordered and uploaded; the row then
 * shows 'Doc(s) compiling...' and the case is DocCompiling (6).
 */
let world: WebWorld;
const dir = mkdtempSync(join(tmpdir(), 'portal-upload-'));

const grid = (page: Page) => page.getByTestId('case-grid');
const db = () => world.t.db;
const statusOf = async (id: number) =>
  Number(
    (await db().query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );
/**
 * The success dialog with both texts. It closes itself after 2 s, so one wait for an element
 * holding both (not a wait, then reads that a busy machine may start after it closed).
 */
const successShown = (page: Page) =>
  page
    .getByTestId('result-dialog')
    .filter({ hasText: M.successTitle })
    .filter({ hasText: M.success })
    .waitFor({ timeout: 20_000 });
/**
 * The first New Cases row whose case still takes an upload (New or Working) and is held by nobody:
 * the list on screen may be seconds older than an earlier test's upload or compile job.
 */
const TAKES_UPLOAD: readonly number[] = [CASE_STATUS.New, CASE_STATUS.Working];
async function uploadableRow(page: Page) {
  await grid(page).getByTestId('doc-upload').first().waitFor({ timeout: 20_000 });
  await networkQuiet(page);
  const rows = grid(page)
    .locator('.ag-row[row-id]')
    .filter({ has: page.getByTestId('doc-upload') });
  const ids = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('row-id')))).map(Number);
  for (const rowId of ids) {
    if (!TAKES_UPLOAD.includes(await statusOf(rowId)) || (await markOf(rowId))) continue;
    // By its row: a grid drawn anew (the tab's data arriving) puts other cases at the same index.
    const upload = grid(page).locator(`.ag-row[row-id="${rowId}"]`).getByTestId('doc-upload').first();
    return { upload, rowId };
  }
  throw new Error('no New Cases row still takes an upload unheld');
}
const markOf = async (id: number) =>
  (
    await db().query<{ type: string; status: number }>(
      `select type, status from cases.case_marks where case_id = $1`,
      [id],
    )
  ).rows[0] ?? null;

describe('upload representment (manager)', () => {
  // No job worker in this world: an accepted upload stays DocCompiling.
  beforeAll(async () => {
    world = await startWebWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

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
    const { upload, rowId } = await uploadableRow(page);
    expect(await upload.getAttribute('title')).toBe('Upload Representment');

    const modal = page.getByTestId('upload-representment-modal');
    await clickUntil(upload, modal);
    await expect
      .poll(() => modal.getByRole('heading').first().textContent())
      .toBe(`Upload Case Document (${rowId})`);
    // Opening holds the case (spec 2 §4 step 1).
    await expect.poll(() => markOf(rowId), { timeout: 15_000 }).toMatchObject({ type: 'upload', status: 16 });
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
    await successShown(page);

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

  it('read-only: the upload icon does nothing; rows without a document say so', async () => {
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'readonly', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    const upload = grid(page).getByTestId('doc-upload').first();
    await upload.waitFor({ timeout: 20_000 });
    const rowId = Number(await upload.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id'));
    expect(await upload.getAttribute('aria-disabled')).toBe('true');
    // aria-disabled: forced, as a user's click is.
    await upload.click({ force: true });
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('upload-representment-modal').count()).toBe(0);
    expect(await markOf(rowId)).toBeNull();
    expect(await statusOf(rowId)).toBe(1);
    // Do Not Represent cases have no document and take none: 'Document Unavailable'.
    await page.getByTestId('tab-dnr').click();
    const none = grid(page).getByTestId('doc-unavailable').first();
    await none.waitFor({ timeout: 20_000 });
    expect(await none.getAttribute('title')).toBe(M.tooltipUnavailable);
  }, 60_000);

  it("the modal's refusals and 'Uploading files...'; 'Downloading...' on a document", async () => {
    const encrypted = join(dir, 'locked.pdf');
    writeFileSync(encrypted, await makePdf(1, { encrypt: true }));
    const many = join(dir, 'many.pdf');
    writeFileSync(many, await makePdf(51));
    const gif = join(dir, 'picture.pdf');
    writeFileSync(gif, Buffer.from('GIF89a not a document'));
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    const { upload, rowId } = await uploadableRow(page);
    const modal = page.getByTestId('upload-representment-modal');
    await clickUntil(upload, modal);
    await expect.poll(() => markOf(rowId), { timeout: 15_000 }).toMatchObject({ status: 16 });
    const error = modal.getByTestId('upload-error');
    await modal.getByTestId('upload-submit').click();
    await expect.poll(() => error.textContent()).toContain(M.noFile);
    const input = modal.getByTestId('upload-file-input');
    await input.setInputFiles(encrypted);
    await expect.poll(() => error.textContent()).toContain(M.corruptPdf);
    await input.setInputFiles(gif);
    await expect.poll(() => error.textContent()).toContain(M.wrongType(10));
    await input.setInputFiles(many);
    await expect.poll(() => error.textContent()).toContain(M.tooManyPages(50));
    expect(await modal.getByTestId('upload-staged-item').count()).toBe(0);

    // A file on its way to the store: the button says so until the upload is done.
    await input.setInputFiles(join(dir, 'evidence.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count()).toBe(1);
    let letGo: () => void = () => undefined;
    const gate = new Promise<void>((r) => (letGo = r));
    await page.route('**/api/docs/objects/**', async (route) => {
      await gate;
      await route.continue();
    });
    await modal.getByTestId('upload-submit').click();
    await expect.poll(() => modal.getByTestId('upload-submit').textContent()).toContain(M.uploading);
    await screenshot(page, 'documents-uploading');
    letGo();
    await successShown(page);
    await page.unroute('**/api/docs/objects/**');
    await expect.poll(() => statusOf(rowId)).toBe(6);

    // A case with a document: 'Downloading...' while its link is fetched.
    await page.getByTestId('tab-in_progress').click();
    const doc = grid(page).getByTestId('doc-download').first();
    await doc.waitFor({ timeout: 20_000 });
    let open: () => void = () => undefined;
    const held = new Promise<void>((r) => (open = r));
    await page.route('**/api/docs/representment/*', async (route) => {
      await held;
      await route.abort();
    });
    await doc.click();
    await expect.poll(() => doc.getAttribute('title')).toBe(M.tooltipDownloading);
    open();
    await expect.poll(() => doc.getAttribute('title')).toBe('Download Document');
  }, 90_000);

  it('a compile that fails: the case can take an upload again and its history says why', async () => {
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    const { rowId } = await uploadableRow(page);

    // Accepted through the API, then its stored file replaced by posting the same form again.
    const api = await apiAs(world, 'acme', 'manager');
    const pdf = await makePdf(1);
    const form = await api<UploadLink>(`/docs/representment/upload-link?case_id=${rowId}`);
    expect(
      (await postForm(world.stack.gatewayUrl, 'acme', form, pdf, 'a.pdf', 'application/pdf')).status,
    ).toBe(204);
    await api('/docs/representment', {
      method: 'POST',
      body: {
        case_id: rowId,
        origin: 2,
        files: [
          { s3_key: form.fields.key, filename: 'a.pdf', content_type: 'application/pdf', size: pdf.length },
        ],
        templates: [],
        qc_review: false,
        is_reupload: false,
      },
    });
    const other = await makePdf(2);
    expect(
      (await postForm(world.stack.gatewayUrl, 'acme', form, other, 'a.pdf', 'application/pdf')).status,
    ).toBe(204);
    // This world has no worker: one runs the compile now.
    const worker = new JobWorker({
      db: world.t.db,
      env: world.t.env,
      log: world.t.deps.log,
      jobs: JOBS,
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
    try {
      await expect.poll(() => statusOf(rowId), { timeout: 30_000 }).toBe(2);
    } finally {
      await worker.stop(2);
    }

    // The row offers the upload again; the case history says why.
    await page.getByTestId('tab-in_progress').click();
    const row = grid(page).locator(`.ag-row[row-id="${rowId}"]`);
    await row.getByTestId('doc-upload').first().waitFor({ timeout: 20_000 });
    // By keyboard: the grid's scrollbar overlay covers the right edge of lower rows.
    await page.getByTestId(`row-actions-${rowId}`).getByRole('button', { name: 'Case Menu' }).press('Enter');
    await page.getByTestId(`case-menu-${rowId}`).getByRole('menuitem', { name: 'Case History' }).click();
    const history = page.getByTestId('history-dialog');
    await history.getByText(M.compileFailedHistory(1)).waitFor();
    await screenshot(page, 'documents-compile-failed-history');
    await history.getByRole('button', { name: 'Close History' }).click();
  }, 90_000);

  it('closing with staged files asks first; Discard releases the case unchanged', async () => {
    const { page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    const { upload, rowId } = await uploadableRow(page);
    const before = await statusOf(rowId);
    const modal = page.getByTestId('upload-representment-modal');
    await clickUntil(upload, modal);
    await expect.poll(() => markOf(rowId), { timeout: 15_000 }).toMatchObject({ status: 16 });
    await modal.getByTestId('upload-file-input').setInputFiles(join(dir, 'evidence.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count(), { timeout: 15_000 }).toBe(1);
    await modal.getByRole('button', { name: 'Close' }).click();
    const discard = page.getByTestId('upload-discard');
    await discard.waitFor();
    expect(await discard.textContent()).toContain(M.discardTitle);
    expect(await discard.textContent()).toContain(M.discardText);
    await screenshot(page, 'documents-upload-discard');
    await discard.getByRole('button', { name: M.discard }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => markOf(rowId), { timeout: 15_000 }).toBeNull();
    expect(await statusOf(rowId)).toBe(before);
  }, 90_000);
});

/**
 * The same path with the job worker running (issue 12): the Document column
 * goes from 'Doc(s) compiling...' to the download icon by the list's 30 s
 * recheck, the QC view shows and downloads the compiled PDF (its SHA-256 is
 * the one recorded), and the QC reviewer's Re-upload adds a version that is
 * compiled and transported. To see the compiling state for certain, the test
 * holds the compile job's last step (it waits on a table lock the test takes
 * before the upload) and lets it go once the browser showed it.
 */
describe('upload, compile and the compiled document (worker running)', () => {
  let live: WebWorld;
  let caseId = 0;
  beforeAll(async () => {
    // acme as the 'central' client kind here: its cycle 2 upload icons carry the arbitration warning.
    live = await startWebWorld(
      {},
      (tenant, yaml) =>
        tenant === 'acme' ? yaml.replace(/^client_kind: \w+/m, 'client_kind: central') : yaml,
      { worker: { pollingIntervalSeconds: 0.5 } },
    );
  }, 120_000);
  afterAll(async () => {
    await live?.close();
  });
  const q = <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
    live.t.db.query<T>(sql, params);
  const status = async (id: number) =>
    Number(
      (await q<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id])).rows[0]!
        .status_id,
    );
  /** In-app navigation (no reload): the router follows popstate. */
  const go = (page: Page, path: string) =>
    page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);

  it('the Document column goes from compiling to available; the QC view downloads the compiled PDF', async () => {
    const pdf = await makePdf(2);
    const jpg = flatJpeg(600, 400);
    writeFileSync(join(dir, 'w-evidence.pdf'), pdf);
    writeFileSync(join(dir, 'w-receipt.jpg'), jpg);

    // Hold every job step (jobs.job_steps) until the browser has seen the compiling state.
    const holder = new pg.Client({ connectionString: live.t.databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table jobs.job_steps in share row exclusive mode');
    let held = true;
    const release = async () => {
      if (!held) return;
      held = false;
      await holder.query('commit');
    };
    try {
      const { page } = await live.newPage();
      // The 30 s DocCompiling recheck is the fallback of live updates (issue 21): any such timer
      // is counted and never runs, so only a server push can turn the row.
      await page.addInitScript(() => {
        const w = window as unknown as { __recheckTimers: number };
        w.__recheckTimers = 0;
        const setInterval = window.setInterval.bind(window);
        window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
          if (ms === 30_000) return (++w.__recheckTimers, 0);
          return setInterval(handler, ms, ...args);
        }) as typeof window.setInterval;
      });
      await signInToShell(page, live, 'acme', 'manager', undefined, '/case-management');
      await page.getByTestId('tab-new_cases').click();
      const upload = grid(page).getByTestId('doc-upload').first();
      await upload.waitFor({ timeout: 20_000 });
      caseId = Number(await upload.locator('xpath=ancestor::*[@row-id][1]').getAttribute('row-id'));
      const modal = page.getByTestId('upload-representment-modal');
      await clickUntil(upload, modal);
      const input = modal.getByTestId('upload-file-input');
      await input.setInputFiles(join(dir, 'w-evidence.pdf'));
      await expect.poll(() => modal.getByTestId('upload-staged-item').count()).toBe(1);
      await input.setInputFiles(join(dir, 'w-receipt.jpg'));
      await expect.poll(() => modal.getByTestId('upload-staged-item').count()).toBe(2);
      await modal.getByTestId('upload-comment').fill('Delivery proof, compiled by the worker');
      // With Quality Review: after the compile the case waits in the QC queue (DocUploaded).
      await modal.getByTestId('upload-qc-review').click();
      await modal.getByTestId('upload-submit').click();
      await successShown(page);
      await page.getByTestId('result-dialog').waitFor({ state: 'detached', timeout: 10_000 });

      // Compiling: the case is DocCompiling and the row shows so.
      expect(await status(caseId)).toBe(6);
      await page.getByTestId('tab-in_progress').click();
      const row = grid(page).locator(`.ag-row[row-id="${caseId}"]`);
      const compiling = row.getByTestId('doc-compiling').first();
      await compiling.waitFor({ timeout: 20_000 });
      expect(await compiling.getAttribute('title')).toBe(M.tooltipCompiling);
      await screenshot(page, 'documents-compiling-row');

      // The compile goes on: DocCompiled, then the QC queue (DocUploaded), no transport yet.
      await release();
      await expect.poll(() => status(caseId), { timeout: 30_000 }).toBe(3);
      const { rows } = await q<{ compiled_sha256: string; compiled_pages: number; state: string }>(
        `select compiled_sha256, compiled_pages, state from docs.representment_versions where case_id = $1`,
        [caseId],
      );
      expect(rows).toEqual([
        { compiled_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), compiled_pages: 3, state: 'compiled' },
      ]);
      const history = (
        await q<{ action: string }>(`select action from cases.case_history where case_id = $1 order by id`, [
          caseId,
        ])
      ).rows.map((r) => r.action);
      expect(history.slice(-2)).toEqual([
        'Representment v1 compiled (3 pages)',
        'Representment sent for Quality Review',
      ]);

      // The case's status change, pushed on the live stream, turns the icon into the document's
      // download (no reload, no 30 s recheck: none was even scheduled while the stream was open).
      const available = row.getByTestId('doc-download').first();
      await available.waitFor({ timeout: 30_000 });
      expect(await row.getByTestId('doc-compiling').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.dataset.live)).toBe('open');
      expect(
        await page.evaluate(() => (window as unknown as { __recheckTimers: number }).__recheckTimers),
      ).toBe(0);
      await screenshot(page, 'documents-compiled-row');

      // The QC view of the case: the compiled document, its documents in order, and the download.
      await go(page, `/case-qc-review/view-case/${caseId}`);
      await page.getByTestId('qc-case').waitFor();
      const link = page.getByTestId('representment-link');
      await link.waitFor({ timeout: 20_000 });
      expect(await link.textContent()).toBe(`representment-${caseId}.pdf`);
      const panel = page.getByTestId('representment');
      expect(await panel.textContent()).toContain('3 page(s)');
      expect(await panel.textContent()).toContain('Delivery proof, compiled by the worker');
      const docs = await page.getByTestId('representment-documents').textContent();
      expect(docs).toContain('1. w-evidence.pdf');
      expect(docs).toContain('2. w-receipt.jpg');
      expect(await page.getByTestId('representment-compiled-hash').textContent()).toContain(
        rows[0]!.compiled_sha256.slice(0, 16),
      );
      await screenshot(page, 'documents-qc-compiled');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`representment-${caseId}.pdf`);
      const saved = join(dir, 'compiled.pdf');
      await download.saveAs(saved);
      const bytes = readFileSync(saved);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(rows[0]!.compiled_sha256);
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(3);
    } finally {
      await release().catch(() => undefined);
      await holder.end();
    }
  }, 150_000);

  it('QC view: Re-upload adds version 2 without holding the case or asking for QC; it is compiled and transported', async () => {
    expect(caseId).toBeGreaterThan(0);
    expect(await status(caseId)).toBe(3);
    const v2 = await makePdf(1);
    writeFileSync(join(dir, 'w-v2.pdf'), v2);
    const { page } = await live.newPage();
    await signInToShell(page, live, 'acme', 'manager', undefined, `/case-qc-review/view-case/${caseId}`);
    await page.getByTestId('qc-case').waitFor({ timeout: 20_000 });
    await page.getByTestId('representment-link').waitFor({ timeout: 20_000 });
    const button = page.getByTestId('qc-reupload');
    expect(await button.textContent()).toBe('Re-upload Representment');

    // Opening it does not hold the case (no status 16) and closing it releases nothing.
    await button.click();
    let modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await expect
      .poll(() => modal.getByRole('heading').first().textContent())
      .toBe(`Upload Representment - ${caseId}`);
    expect(await modal.getByTestId('upload-qc-review').count()).toBe(0);
    expect(await markOfIn(live, caseId)).toMatchObject({ type: 'qc-review' });
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await status(caseId)).toBe(3);
    expect(await markOfIn(live, caseId)).toMatchObject({ type: 'qc-review' });

    await button.click();
    modal = page.getByTestId('upload-representment-modal');
    await modal.waitFor();
    await modal.getByTestId('upload-file-input').setInputFiles(join(dir, 'w-v2.pdf'));
    await expect.poll(() => modal.getByTestId('upload-staged-item').count()).toBe(1);
    await modal.getByTestId('upload-comment').fill('Corrected receipt');
    await screenshot(page, 'documents-qc-reupload-modal');
    await modal.getByTestId('upload-submit').click();
    await successShown(page);
    // The view moves on to the next QC case (or says none is left).
    await expect.poll(() => page.url()).not.toContain(`/view-case/${caseId}`);

    // Version 2 (a re-upload, no QC) is compiled and transported; version 1 is kept.
    await expect.poll(() => status(caseId), { timeout: 30_000 }).toBe(10);
    const versions = (
      await q<{
        version: number;
        is_reupload: boolean;
        qc_review: boolean;
        state: string;
        submission_id: string | null;
      }>(
        `select version, is_reupload, qc_review, state, submission_id from docs.representment_versions
          where case_id = $1 order by version`,
        [caseId],
      )
    ).rows;
    expect(versions).toEqual([
      { version: 1, is_reupload: false, qc_review: true, state: 'compiled', submission_id: null },
      {
        version: 2,
        is_reupload: true,
        qc_review: false,
        state: 'compiled',
        submission_id: expect.stringMatching(/^SIM-/),
      },
    ]);
  }, 120_000);

  it("the 'central' client kind: a second-cycle case's upload icon warns of arbitration fees", async () => {
    const { page } = await live.newPage();
    await signInToShell(page, live, 'acme', 'manager', undefined, '/case-management');
    await page.getByTestId('tab-new_cases').click();
    await grid(page).getByTestId('doc-upload').first().waitFor({ timeout: 20_000 });
    await networkQuiet(page);
    // Each row's id and icon title read together: a grid drawn anew moves cases between indexes.
    const pairs = await grid(page)
      .locator('.ag-row[row-id]')
      .evaluateAll((els) =>
        els.flatMap((e) => {
          const icon = e.querySelector('[data-testid="doc-upload"]');
          return icon ? [[Number(e.getAttribute('row-id')), icon.getAttribute('title')] as const] : [];
        }),
      );
    const titles = new Map<number, string | null>(pairs);
    const { rows } = await q<{ id: number; cycle_id: number }>(
      `select id, cycle_id from cases.cases where id = any($1::bigint[])`,
      [[...titles.keys()]],
    );
    const second = rows.filter((r) => r.cycle_id === 2).map((r) => Number(r.id));
    const first = rows.filter((r) => r.cycle_id === 1).map((r) => Number(r.id));
    expect(second.length).toBeGreaterThan(0);
    expect(first.length).toBeGreaterThan(0);
    for (const id of second) expect(titles.get(id)).toBe(M.centralArbitration);
    for (const id of first) expect(titles.get(id)).toBe('Upload Representment');
  }, 60_000);
});

const markOfIn = async (w: WebWorld, id: number) =>
  (
    await w.t.db.query<{ type: string; status: number }>(
      `select type, status from cases.case_marks where case_id = $1`,
      [id],
    )
  ).rows[0] ?? null;
