import type { RecoveredRevenueRows, RecoveredTile } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { apiAs, signedInPage, useWebWorld } from '../support/e2e-web';

/** The money ledger (issue 33) in the browser: the dashboard's Recovered tile and the /reports section. */
const world = useWebWorld();

const money = (n: number, currency: string) =>
  `${n < 0 ? '-' : ''}${currency === 'USD' ? '$' : `${currency} `}${Math.abs(n).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`;

describe('money ledger screens', () => {
  it('northbank admin: the Recovered tile shows the API net in euros with its comparison', async () => {
    const api = await apiAs(world, 'northbank', 'admin');
    const tile = await api<RecoveredTile>('/cm/cases/dashboard/recovered');
    expect(tile.currency).toBe('EUR');
    const { context, page } = await signedInPage(world, 'northbank', 'admin');
    await page.goto(world.url('northbank', '/dashboard'));
    const value = page.getByTestId('tile-recovered-value');
    await value.waitFor({ timeout: 30_000 });
    expect(await value.textContent()).toBe(money(tile.this_month.net, 'EUR'));
    expect(await page.getByTestId('tile-recovered-change').textContent()).toContain(
      money(tile.last_month.net, 'EUR'),
    );
    await screenshot(page, 'money-dashboard-tile');
    await context.close();
  });

  it('acme admin: /reports shows recovered revenue by month and MID, the rates panel, and exports CSV', async () => {
    const api = await apiAs(world, 'acme', 'admin');
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    await page.goto(world.url('acme', '/reports'));
    const section = page.getByTestId('recovered-revenue');
    await section.getByTestId('recovered-revenue-row').first().waitFor({ timeout: 30_000 });
    const range = await page
      .getByTestId('filter-range')
      .locator('input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('|'));
    const byMonth = await api<RecoveredRevenueRows>(
      `/cm/cases/reports/recovered-revenue?date_range=${range}&date_reference=post&group_by=month`,
    );
    expect(await section.getByTestId('recovered-revenue-row').count()).toBe(byMonth.data.length);
    expect(await section.getByTestId('recovered-revenue-total').textContent()).toContain(
      money(byMonth.total.net, 'USD'),
    );
    await section.getByTestId('recovered-revenue-group').selectOption('mid');
    await expect.poll(() => section.locator('th').first().textContent(), { timeout: 15_000 }).toBe('MID');
    await section.getByTestId('recovered-revenue-row').first().waitFor();
    // The exchange rates panel (provider staff): the seeded year of rates per currency.
    await page.getByTestId('exchange-rate-row').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('exchange-rate-row').count()).toBe(5);
    const download = page.waitForEvent('download');
    await section.getByTestId('recovered-revenue-csv').click();
    expect((await download).suggestedFilename()).toMatch(/^recovered-revenue-by-mid.*\.csv$/);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'money-reports-section');
    await context.close();
  });
});
