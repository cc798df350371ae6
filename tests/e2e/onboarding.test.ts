/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Issue 17: an administrator uploads a merchant onboarding CSV with a bad
 * row, sees the failing cell highlighted, fixes it, finalizes, and the job
 * creates the merchant and its main admin user.
 */
const world = useWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });

const HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';

describe('onboarding', () => {
  it('uploads a file with a bad row, fixes it and finalizes', async () => {
    const run = Date.now().toString(36);
    const csv = [
      HEADER,
      `E2E Onb ${run} A,,,Basic,US,,1 Main St,Austin,TX,78701,+1 512 555 0100,Ann,Able,ann.${run}@example.com,ann.${run},`,
      `E2E Onb ${run} B,,,Pro,CA,,2 Main St,Toronto,ON,M5H,+1 416 555 0100,Bob,Baker,not-an-email,bob.${run},`,
    ].join('\r\n');
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/onboarding');
      await page.getByTestId('onboarding-history').waitFor();
      await page.getByRole('button', { name: 'Initiate Onboarding' }).click();
      const dialog = page.getByTestId('onboarding-upload-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('csv-file-input').setInputFiles({
        name: 'merchants.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      const upload = dialog.getByRole('button', { name: 'Upload' });
      expect(await upload.isDisabled()).toBe(true); // no type chosen yet
      await dialog.locator('select[name="onboarding-type"]').selectOption('merchant');
      await upload.click();
      await page.getByTestId('onboarding-edit').waitFor();
      expect(page.url()).toMatch(/\/onboarding\/edit\/\d+$/);

      const bad = page.getByTestId('record-2').locator('input[name="email"]');
      await expect.poll(() => bad.getAttribute('data-failing')).toBe('true');
      expect(await bad.getAttribute('title')).toBe('Invalid e-mail address.');
      const finalize = page.getByRole('button', { name: 'Finalize' });
      expect(await finalize.isDisabled()).toBe(true);
      await screenshot(page, 'h17-onboarding-bad-row');

      await bad.fill(`bob.${run}@example.com`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Successfully updated record.').first().waitFor();
      await expect.poll(() => page.getByTestId('failing-count').textContent()).toBe('0 failing cell(s)');
      await expect.poll(() => finalize.isDisabled()).toBe(false);
      await finalize.click();
      await page.getByText('Your action was a success!').first().waitFor();
      await page.getByTestId('onboarding-history').waitFor();

      await expect
        .poll(
          async () =>
            (
              await world.t.db.query(
                `select 1 from users.users where tenant = 'acme' and username = any($1)`,
                [[`ann.${run}`, `bob.${run}`]],
              )
            ).rows.length,
          { timeout: 30_000 },
        )
        .toBe(2);
      const merchants = await world.t.db.query(
        `select business_name from cases.merchants where tenant_id = 'acme' and business_name like $1 order by 1`,
        [`E2E Onb ${run}%`],
      );
      expect(merchants.rows.map((r) => (r as { business_name: string }).business_name)).toEqual([
        `E2E Onb ${run} A`,
        `E2E Onb ${run} B`,
      ]);
      await page.reload();
      await page.getByTestId('onboarding-files').waitFor();
      await expect.poll(() => page.getByTestId('onboarding-files').textContent()).toMatch(/Merchant/);
      await screenshot(page, 'h17-onboarding-history');
    } finally {
      await context.close();
    }
  }, 120_000);
});
