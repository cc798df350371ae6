/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, DOWNLOAD_MESSAGES, TEMPLATE_MESSAGES } from '@portal/contracts';
import { newObjectKey, openObjectStore, type ObjectStore } from '@portal/storage';
import { resolveDocsLinkSecret } from '../../services/docs/src/files/signed-links';
import { flatJpeg } from '../../services/docs/src/seed/demo-jpeg';
import { textPdf } from '../../services/docs/src/seed/seed-templates';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/** Templates Library (both variants) and the download page against the full stack (spec 2 §2.10, §7, §8). */
let world: WebWorld;
let store: ObjectStore;
const ACME = demoTenant('acme');
const ROOT = demoMerchantId(ACME, 'root');
const A2 = demoMerchantId(ACME, 'merchantA2');

beforeAll(async () => {
  world = await startWebWorld();
  store = await openObjectStore(world.t.env, world.t.deps.log, {
    linkSecret: resolveDocsLinkSecret(world.t.env),
  });
}, 120_000);
afterAll(async () => {
  await store?.close();
  await world?.close();
});

async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const liveTemplates = async (merchantId: number, name: string) =>
  (
    await world.t.db.query<{ id: string; pages: number; deleted: boolean }>(
      `select id, pages, deleted_at is not null as deleted from docs.templates where merchant_id = $1 and name = $2`,
      [merchantId, name],
    )
  ).rows;

describe('Templates Library', () => {
  it('a manager uploads a template (pages counted, bad files refused in the browser) and deletes it', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'manager', undefined, '/template-library');
      const rows = page.getByTestId('template-row');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(3);
      expect(await page.getByTestId('templates-list').textContent()).toContain('Refund Policy');

      await page.getByTestId('upload-template').click();
      const dialog = page.getByTestId('upload-template-dialog');
      await dialog.waitFor();
      const input = dialog.locator('input[type="file"]');
      // A JPEG without its end marker is refused before anything is sent.
      await input.setInputFiles({
        name: 'broken.jpg',
        mimeType: 'image/jpeg',
        buffer: flatJpeg(32, 32).subarray(0, -2),
      });
      await expect
        .poll(() => page.getByTestId('template-file-error').textContent())
        .toBe(TEMPLATE_MESSAGES.jpgCorrupt);
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect
        .poll(() => page.getByTestId('template-file-error').textContent())
        .toBe(TEMPLATE_MESSAGES.typeNotAllowed);

      const pdf = await textPdf('Delivery proof', [['page one'], ['page two']]);
      await input.setInputFiles({ name: 'delivery-proof.pdf', mimeType: 'application/pdf', buffer: pdf });
      await expect.poll(() => page.getByTestId('template-file-info').textContent()).toContain('2 pages');
      await dialog.locator('input[name="template-name"]').fill('E2E Delivery Proof');
      await dialog.locator('select[name="document-type"]').selectOption({ label: 'Proof of Delivery' });
      await screenshot(page, 'template-upload-dialog');
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = rows.filter({ hasText: 'E2E Delivery Proof' });
      await row.waitFor();
      expect(await row.textContent()).toContain('Proof of Delivery');
      const stored = await liveTemplates(ROOT, 'E2E Delivery Proof');
      expect(stored).toHaveLength(1);
      expect(stored[0]!.pages).toBe(2);
      await screenshot(page, 'template-library');

      await row.getByRole('button', { name: 'Delete E2E Delivery Proof' }).click();
      const confirm = page.getByTestId('delete-template-dialog');
      expect(await confirm.textContent()).toContain(
        "Are you sure you want to delete the template 'E2E Delivery Proof'?",
      );
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await liveTemplates(ROOT, 'E2E Delivery Proof'))[0]!.deleted).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows the grid variant, and the empty text for a merchant without templates', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'manager', undefined, '/template-library-new');
      const grid = page.getByTestId('templates-grid');
      await grid.getByText('terms-and-conditions.pdf', { exact: true }).waitFor();
      // The seed's hand-made JPEG is a real image: the browser decodes it.
      const size = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/jpeg;base64,${b64}`;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      }, flatJpeg(320, 200).toString('base64'));
      expect(size).toEqual([320, 200]);
      await screenshot(page, 'template-library-new');
      await page.evaluate((id) => {
        sessionStorage.setItem(
          'portal.selectedMerchant',
          JSON.stringify({ id, name: 'Copper Kettle Coffee' }),
        );
      }, A2);
      await page.reload();
      await page.getByText(TEMPLATE_MESSAGES.empty).waitFor();
      await go(page, '/template-library');
      await page.getByTestId('templates-empty').waitFor();
      expect(await page.getByTestId('templates-empty').textContent()).toBe(TEMPLATE_MESSAGES.empty);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('/download', () => {
  it('downloads a valid loc, then shows /download; an invalid one shows the error texts', async () => {
    const key = newObjectKey('acme', 'exports', 'cases-export.csv');
    await store.put('acme', key, 'id,verdict\n1,Win\n', { contentType: 'text/csv' });
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin');
      const downloaded = page.waitForEvent('download');
      await go(page, `/download?loc=${encodeURIComponent(key)}`);
      const file = await downloaded;
      expect(file.suggestedFilename()).toBe('cases-export.csv');
      await page.getByTestId('download-done').waitFor();
      await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/download');
      await page.getByRole('button', { name: 'Return to Home' }).waitFor();
      await screenshot(page, 'download-done');

      // No loc at all: the page's own check.
      await go(page, '/dashboard');
      await go(page, '/download');
      try {
        await page.getByTestId('download-error').waitFor();
      } catch (e) {
        await screenshot(page, 'download-no-loc-failure');
        console.error(page.url(), await page.evaluate(() => document.body.innerText.slice(0, 500)));
        throw e;
      }
      expect(await page.getByTestId('download-page').textContent()).toContain('Error');
      expect(await page.getByTestId('download-error').textContent()).toBe(DOWNLOAD_MESSAGES.invalidUrl);

      // A loc the server refuses: its text.
      await page.goto(world.url('acme', '/download?loc=..%2F..%2Fetc%2Fpasswd'));
      await page.getByTestId('download-error').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('download-error').textContent()).toBe(DOWNLOAD_MESSAGES.invalidUrl);
      await screenshot(page, 'download-invalid');
      await page.getByRole('button', { name: 'Return to Home' }).click();
      await expect.poll(() => new URL(page.url()).pathname).not.toBe('/download');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows "Please wait" with a spinner while the link is asked for', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin');
      await page.route('**/api/docs/downloadable*', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'The file was not found.' }),
        });
      });
      await go(page, '/download?loc=acme%2Fexports%2F00000000-0000-4000-8000-000000000000%2Fx.csv');
      await page.getByText(DOWNLOAD_MESSAGES.wait).waitFor();
      await page.getByTestId('download-spinner').waitFor();
      await screenshot(page, 'download-wait');
      await page.getByTestId('download-error').waitFor();
      expect(await page.getByTestId('download-error').textContent()).toBe('The file was not found.');
    } finally {
      await context.close();
    }
  }, 60_000);
});
