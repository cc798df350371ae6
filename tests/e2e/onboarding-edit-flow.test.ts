/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ONBOARDING_MESSAGES as M } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Issue 29 item 4a: the onboarding edit screen on a narrow window. The row
 * number and Business Name stay pinned while the wide grid scrolls; 'Next
 * error' scrolls to and focuses each failing cell in turn (off-screen to the
 * right); Save confirms with a toast; an unfinalized upload is discarded from
 * the edit screen and from the history, and is gone from both.
 */
const world = useWebWorld();

const HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';

async function upload(page: Page, csv: string) {
  await page.getByRole('button', { name: 'Initiate Onboarding' }).click();
  const dialog = page.getByTestId('onboarding-upload-dialog');
  await dialog.getByTestId('csv-file-input').setInputFiles({
    name: 'merchants.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await dialog.locator('select[name="onboarding-type"]').selectOption('merchant');
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await page.getByTestId('onboarding-edit').waitFor();
  return Number(/\/onboarding\/edit\/(\d+)$/.exec(page.url())![1]);
}

/** Whether a cell is fully inside the grid's visible box and not under the pinned columns. */
async function inView(grid: Locator, cell: Locator, pinnedRight: number) {
  const g = (await grid.boundingBox())!;
  const c = (await cell.boundingBox())!;
  return c.x >= pinnedRight - 1 && c.x + c.width <= g.x + g.width + 1;
}

const focusedCell = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el && el.tagName === 'INPUT'
      ? { name: el.name, label: el.getAttribute('aria-label'), failing: el.dataset.failing }
      : null;
  });

describe('onboarding edit: pinned keys, next error, save feedback, discard (issue 29)', () => {
  it('pins the row keys, walks the failing cells, confirms a save and discards the upload', async () => {
    const run = Date.now().toString(36);
    const csv = [
      HEADER,
      `E2E Pin ${run} A,,,Basic,US,,1 Main St,Austin,TX,78701,+1 512 555 0100,Ann,Able,not-an-email,pin.${run}.a,`,
      `E2E Pin ${run} B,,,Pro,US,,2 Main St,Austin,TX,78701,+1 512 555 0100,Bob,Baker,bob.${run}@example.com,pin.${run}.b,call me`,
    ].join('\r\n');
    const { context, page } = await world.newPage({ width: 1000, height: 800 });
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/onboarding');
      await page.getByTestId('onboarding-history').waitFor();
      const id = await upload(page, csv);
      const grid = page.getByTestId('onboarding-records').locator('xpath=..');
      const email = page.getByTestId('record-1').locator('input[name="email"]');
      const phone = page.getByTestId('record-2').locator('input[name="phone"]');
      await expect.poll(() => email.getAttribute('data-failing')).toBe('true');
      expect(await phone.getAttribute('data-failing')).toBe('true');

      // The grid is wider than the window: the failing cells start off-screen to the right.
      const widths = await grid.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(widths.scroll).toBeGreaterThan(widths.client);
      const name = page.getByTestId('record-1').locator('input[name="business_name"]');
      const pinnedRight = await name.evaluate((el) => el.closest('td')!.getBoundingClientRect().right);
      expect(await inView(grid, email, pinnedRight)).toBe(false);
      await screenshot(page, 'i29-onboarding-edit-start');

      // Next error: the first failing cell, scrolled into view beside the pinned columns and focused.
      await page.getByTestId('next-error').click();
      await expect.poll(() => focusedCell(page)).toMatchObject({ name: 'email', failing: 'true' });
      expect((await focusedCell(page))!.label).toBe('Email row 1');
      await expect.poll(() => inView(grid, email, pinnedRight)).toBe(true);
      // The row's identity stays in view while the grid is scrolled right.
      expect(await grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      const g = (await grid.boundingBox())!;
      const n = (await name.boundingBox())!;
      expect(n.x).toBeGreaterThanOrEqual(g.x - 1);
      expect(n.x + n.width).toBeLessThanOrEqual(g.x + g.width);
      expect(await page.getByTestId('record-1').locator('td').first().textContent()).toBe('1');
      await screenshot(page, 'i29-onboarding-next-error');

      // Again: the next one (row 2, Phone), then round to the first.
      await page.getByTestId('next-error').click();
      await expect.poll(() => focusedCell(page)).toMatchObject({ name: 'phone', failing: 'true' });
      expect((await focusedCell(page))!.label).toBe('Phone row 2');
      await expect.poll(() => inView(grid, phone, pinnedRight)).toBe(true);
      await page.getByTestId('next-error').click();
      await expect.poll(() => focusedCell(page)).toMatchObject({ name: 'email' });

      // Fix both, Save: the count of unsaved changes, then a toast that confirms it.
      await email.fill(`ann.${run}@example.com`);
      await phone.fill('+1 512 555 0199');
      expect(await page.getByTestId('unsaved-count').textContent()).toBe('2 unsaved change(s)');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const toast = page.locator('[data-scope="toast"][data-part="root"]', { hasText: M.recordUpdated });
      await toast.first().waitFor();
      expect(await toast.first().textContent()).toContain('No failing cells: the file can be finalized.');
      await expect.poll(() => page.getByTestId('failing-count').textContent()).toBe('0 failing cell(s)');
      expect(await page.getByTestId('next-error').isDisabled()).toBe(true);
      await screenshot(page, 'i29-onboarding-saved');

      // Discard from the edit screen: asked first, then gone (rows too), back on the history.
      await page.getByTestId('onboarding-discard').click();
      const confirm = page.getByTestId('onboarding-discard-dialog');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(M.discardConfirm('merchants.csv'));
      await screenshot(page, 'i29-onboarding-discard-confirm');
      await confirm.getByTestId('onboarding-discard-confirm').click();
      await page.getByText(M.discarded).first().waitFor();
      await page.getByTestId('onboarding-history').waitFor();
      await page.getByTestId(`onboarding-file-${id}`).waitFor({ state: 'detached' });
      const left = await world.t.db.query(
        `select (select count(*)::int from cases.onboarding_files where id = $1) as files,
                (select count(*)::int from cases.onboarding_records where file_id = $1) as records`,
        [id],
      );
      expect(left.rows[0]).toEqual({ files: 0, records: 0 });

      // From the history: an open upload has Discard, a finalized one has not.
      const second = await upload(
        page,
        [HEADER, `E2E Pin ${run} C,,,Basic,US,,,,,,,Cy,Cole,cy.${run}@example.com,pin.${run}.c,`].join(
          '\r\n',
        ),
      );
      await page.getByRole('button', { name: 'Back' }).click();
      const rowOf = page.getByTestId(`onboarding-file-${second}`);
      await rowOf.waitFor();
      const finalized = await world.t.db.query<{ id: string }>(
        `select id from cases.onboarding_files where tenant_id = 'acme' and finalized_date is not null order by id desc limit 1`,
      );
      if (finalized.rows[0])
        expect(await page.getByTestId(`onboarding-discard-${finalized.rows[0].id}`).count()).toBe(0);
      await screenshot(page, 'i29-onboarding-history-discard');
      await rowOf.getByTestId(`onboarding-discard-${second}`).click();
      await page.getByTestId('onboarding-discard-confirm').click();
      await rowOf.waitFor({ state: 'detached' });
      const gone = await world.t.db.query(`select 1 from cases.onboarding_files where id = $1`, [second]);
      expect(gone.rows.length).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
