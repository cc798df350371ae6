/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * The Merchant Settings grid view (spec 3 §2): a merchant admin sees the MIDs
 * of its merchant, opens a MID's details, enrols two MIDs in an alert program
 * with Alert Actions, exports the grid as CSV and sees the merchant's users; a
 * read-only user finds Alert Actions disabled.
 */
const A1 = demoMerchantId(demoTenant('acme'), 'merchantA1');
const world = useWebWorld();

describe('merchant settings grid view', () => {
  it('shows MIDs, details and users, runs Alert Actions on the selected MIDs and exports CSV', async () => {
    const { rows: mids } = await world.t.db.query<{ id: string; mid: string }>(
      `select id, mid from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by mid, id`,
      [A1],
    );
    await world.t.db.query(`delete from cases.mid_deflectors where mid_id = any($1::bigint[])`, [
      mids.map((m) => m.id),
    ]);
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/merchant-settings');
      const grid = page.getByTestId('mids-grid');
      await expect.poll(() => grid.getByTestId('mid-row').count(), { timeout: 30_000 }).toBe(mids.length);
      await page.getByText('You must select a row to see MID details.').waitFor();
      await page.getByTestId('merchant-users').getByText('merchant.admin', { exact: true }).waitFor();

      // A row clicked opens its details.
      await grid.locator(`[data-mid="${mids[1]!.mid}"]`).click();
      await page.getByTestId('mid-details-panel').getByText(mids[1]!.mid).first().waitFor();

      // Alert Actions on two selected rows.
      for (const m of mids.slice(0, 2))
        await grid.locator(`[data-mid="${m.mid}"]`).getByTestId('mid-row-check').click();
      await page.getByTestId('mids-menu').click();
      await page.getByRole('menuitem', { name: 'Alert Actions' }).click();
      const dialog = page.getByTestId('alert-actions-dialog');
      await dialog.getByText('Verifi CDRN').click();
      await screenshot(page, 'merchant-settings-alert-actions');
      await dialog.getByTestId('alert-actions-submit').click();
      await page.getByTestId('mids-notice').getByText('Alert enrolment requested for 2 MIDs.').waitFor();
      const { rows } = await world.t.db.query<{ mid_id: string; deflector_id: number; status_id: number }>(
        `select mid_id, deflector_id, status_id from cases.mid_deflectors where mid_id = any($1::bigint[]) order by mid_id`,
        [mids.map((m) => m.id)],
      );
      expect(rows.map((r) => [r.mid_id, Number(r.deflector_id), Number(r.status_id)])).toEqual([
        [mids[0]!.id, 2, 2],
        [mids[1]!.id, 2, 2],
      ]);

      // CSV export of the grid.
      const download = page.waitForEvent('download');
      await page.getByTestId('mids-menu').click();
      await page.getByRole('menuitem', { name: 'CSV Export' }).click();
      const csv = readFileSync((await (await download).path())!, 'utf8');
      expect(csv).toContain('MID,Alias,Descriptor');
      for (const m of mids) expect(csv).toContain(m.mid);
      await screenshot(page, 'merchant-settings');
    } finally {
      await context.close();
    }
  });

  it('gives a read-only user no Alert Actions', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'readonly', undefined, '/merchant-settings');
      const grid = page.getByTestId('mids-grid');
      await grid.getByTestId('mid-row-check').first().click({ timeout: 30_000 });
      await page.getByTestId('mids-menu').click();
      const item = page.getByRole('menuitem', { name: 'Alert Actions' });
      expect(await item.getAttribute('aria-disabled')).toBe('true');
    } finally {
      await context.close();
    }
  });
});
