import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { apiAs, gatewayCall, signedInPage, useWebWorld } from '../support/e2e-web';

/** Every report screen (issue 18) opens with its data drawn from the seeded rows. */
const world = useWebWorld();

const drawn = (page: Page, id: string) => page.getByTestId(`${id}-drawn`).waitFor({ timeout: 30_000 });

describe('report screens', () => {
  it('/reports draws the configured sections, filters by currency and shows the win rate', async () => {
    const boot = (await gatewayCall(world, 'acme', '/api/tenant')).json as { report_charts: string[] };
    const api = await apiAs(world, 'acme', 'admin');
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    const started = Date.now();
    await page.goto(world.url('acme', '/reports'));
    await page.getByTestId('reports').waitFor();
    await drawn(page, 'report-card-type');
    console.info(`/reports first chart drawn in ${Date.now() - started} ms`);
    for (const chart of boot.report_charts) {
      await page
        .locator(`[data-testid="report-${chart}-drawn"], [data-testid="report-${chart}-empty"]`)
        .first()
        .waitFor({ timeout: 30_000 });
    }
    expect(await page.getByTestId('report-section').count()).toBeGreaterThan(0);
    // The card type donut shows the API's slices.
    const range = await page
      .getByTestId('filter-range')
      .locator('input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('|'));
    const cards = await api<{ data: { label: string }[] }>(
      `/cm/cases/reports/card-type?date_range=${range}&date_reference=post&limit=5`,
    );
    const legend = page.getByTestId('report-card-type').locator('.apexcharts-legend');
    await expect.poll(() => legend.textContent()).toContain(cards.data[0]!.label);
    await page.getByTestId('win-rate-row').first().waitFor();
    await screenshot(page, 'reports');

    // Currency type-ahead: 2+ characters, preferred currencies first.
    await page.getByTestId('filter-currency-input').click();
    await page.getByTestId('filter-currency-input').fill('U');
    await page.getByText('Please enter 2 or more characters').waitFor();
    await page.getByTestId('filter-currency-input').fill('US');
    const first = page.getByTestId('filter-currency-option').first();
    await expect.poll(() => first.textContent()).toMatch(/^USD/);
    await first.click();
    await expect.poll(() => page.getByTestId('filter-currency-input').inputValue()).toMatch(/^USD/);
    await drawn(page, 'report-card-type');
    await context.close();
  });

  it('Resultant KPI, MTD, alerts report and monitoring draw their data', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    await page.goto(world.url('acme', '/resultant-kpi'));
    await drawn(page, 'kpi-chargebacks');
    await drawn(page, 'kpi-alerts');
    await screenshot(page, 'resultant-kpi');

    await page.goto(world.url('acme', '/mtd'));
    await page.getByTestId('mtd-chargebacks').waitFor();
    // The ratio reads as a percentage, this month's and the previous one's.
    expect(await page.getByTestId('mtd-ratio').textContent()).toMatch(
      /ratio %\d[\d,]*\.\d\d%Previous \d[\d,]*\.\d\d%/,
    );
    await drawn(page, 'mtd-daily');
    await screenshot(page, 'mtd');

    await page.goto(world.url('acme', '/reports/alerts'));
    await drawn(page, 'alerts-outcomes');
    await page.getByTestId('alerts-report-table').waitFor();
    await screenshot(page, 'reports-alerts');

    await page.goto(world.url('acme', '/reports/monitoring'));
    await page.getByTestId('monitoring-Visa').waitFor();
    await page.getByTestId('monitoring-row').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('monitoring-Visa').textContent()).toContain('0.9%');
    expect(await page.getByTestId('monitoring-Mastercard').textContent()).toContain('1.5%');
    await screenshot(page, 'reports-monitoring');
    await context.close();
  });

  it('MID health grid colours ratings and filters by rating (both routes)', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    // Row 0 has the highest ratio (the default sort), so it has sales and a rating chip once loaded.
    for (const path of ['/mid-health-new', '/mid-health']) {
      await page.goto(world.url('acme', path));
      await page
        .locator(
          '[data-testid="mid-health-grid"] .ag-row[row-index="0"] [data-testid="mid-health-rating-cell"]',
        )
        .first()
        .waitFor({ timeout: 30_000 });
    }
    const health = page
      .locator('[data-testid="mid-health-grid"] .ag-row[row-index="0"] [col-id="health"]')
      .first();
    const rating = (await health.textContent())!.trim();
    expect(['Good', 'Low Risk', 'Medium Risk', 'High Risk']).toContain(rating);
    const chip = health.getByTestId('mid-health-rating-cell');
    expect(await chip.evaluate((e) => getComputedStyle(e).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await screenshot(page, 'mid-health');
    await page.getByTestId('mid-health-rating').selectOption(rating);
    await page.waitForTimeout(500);
    const ratings = await page
      .locator('[data-testid="mid-health-grid"] .ag-row [col-id="health"]')
      .allTextContents();
    expect(ratings.length).toBeGreaterThan(0);
    expect(new Set(ratings.map((r) => r.trim()))).toEqual(new Set([rating]));
    await context.close();
  });

  it('reconciliation: flag with a comment, unflag and mark reviewed', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'merchant.admin');
    await page.goto(world.url('acme', '/reconciliation-report-new'));
    const row = page.getByTestId('reconciliation-row').first();
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-flag').click();
    await page.getByTestId('reconciliation-comment').fill('Missing from the processor file');
    await page.getByTestId('reconciliation-confirm').click();
    await expect
      .poll(() => row.getByTestId('reconciliation-flag-cell').textContent())
      .toContain('Missing from the processor file');
    await screenshot(page, 'reconciliation-flagged');

    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-unflag').click();
    await page.getByTestId('reconciliation-unflag-dialog').waitFor();
    await page.getByTestId('reconciliation-confirm').click();
    await expect.poll(() => row.getByTestId('reconciliation-flag-cell').textContent()).toBe('');

    await row.getByRole('checkbox').check({ force: true });
    await page.getByTestId('reconciliation-review').click();
    await page.getByTestId('reconciliation-confirm').click();
    await page.getByText('The selected row(s) has been reviewed.').waitFor();
    await expect.poll(() => row.getByTestId('reconciliation-reviewer').textContent()).toBe('merchant.admin');
    await page.goto(world.url('acme', '/reconciliation-report'));
    await page.getByTestId('reconciliation-row').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'reconciliation');
    await context.close();
  });
});
