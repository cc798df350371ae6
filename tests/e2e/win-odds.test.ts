import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { firstCell, openCaseList } from '../support/e2e-case-grid';
import { apiAs, signInToShell, useWebWorld } from '../support/e2e-web';

/** Issue 33: the open cases show their win odds, and the admin screen its honest evaluation. */
// The worker runs every job kind (the win odds training among them).
const world = useWebWorld({}, undefined, { worker: { pollingIntervalSeconds: 0.5 } });

interface ListAnswer {
  data: { id: number; win_odds: { probability: number; recommendation: string } | null }[];
}

describe('win odds', () => {
  it("shows 'Win N% · Fight/Accept' on the open cases of the list", async () => {
    const api = await apiAs(world, 'acme', 'manager');
    const { page } = await openCaseList(
      world,
      'acme',
      'manager',
      '/chargebacks?sort_by=date_due&sort_order=desc',
      'chargebacks',
    );
    const all = await api<ListAnswer>(
      '/cm/cases?intent=chargebacks&limit=50&sort_by=date_due&sort_order=desc',
    );
    // Latest due first: open cases (scored), perhaps a few closed ones (no odds).
    const texts = all.data.map((c) =>
      c.win_odds ? `Win ${Math.round(c.win_odds.probability * 100)}% · ${c.win_odds.recommendation}` : '',
    );
    expect(texts.filter(Boolean).length).toBeGreaterThan(0);
    const cells = () => page.locator('.ag-row [col-id="win_odds"]').allTextContents();
    await expect
      .poll(async () => (await cells()).filter(Boolean).length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    for (const text of (await cells()).filter(Boolean)) expect(texts).toContain(text);
    expect(await firstCell(page, 'win_odds').textContent()).toBe(texts[0]);
    await screenshot(page, 'h33-case-list-win-odds');
  }, 120_000);

  it('shows the admin screen its Brier scores and calibration table, and retrains on demand', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/win-odds');
      await page.getByTestId('win-odds-admin').waitFor();
      const table = page.getByTestId('win-odds-deciles');
      await table.waitFor();
      expect(await table.locator('tbody tr').count()).toBe(10);
      expect(await page.getByTestId('win-odds-note').textContent()).toMatch(
        /beat the reason code's historical win rate/,
      );
      await screenshot(page, 'h33-win-odds-admin');
      const before = await page.getByTestId('win-odds-meta').textContent();
      await page.getByTestId('win-odds-retrain').click();
      // The job runs in the stack's worker; the screen follows it to a new training.
      await expect
        .poll(() => page.getByTestId('win-odds-meta').textContent(), { timeout: 60_000 })
        .not.toBe(before);
    } finally {
      await context.close();
    }
  }, 120_000);
});
