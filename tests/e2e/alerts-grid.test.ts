/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/** The alerts grid form (spec 2 §2.11) against the full stack: a self-service merchant works its alerts. */
let world: WebWorld;
const A1 = demoMerchantId(demoTenant('acme'), 'merchantA1');

beforeAll(async () => {
  world = await startWebWorld();
}, 120_000);
afterAll(async () => world?.close());

/** A fresh open alert of merchantA1 from an hour ago, on a mapped or an unmapped descriptor. */
async function newAlert(orderId: string, mapped: boolean): Promise<number> {
  // Each unmapped alert gets its own descriptor: mapping one maps every alert of the descriptor.
  if (!mapped)
    await world.t.db.query(
      `insert into cases.alert_descriptors (tenant_id, merchant_id, descriptor) values ('acme', $1, $2)`,
      [A1, `E2E*${orderId}`],
    );
  const { rows } = await world.t.db.query<{ id: string }>(
    `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
       trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
     select 'acme', $1, d.id, 1, $2, 64.2, 1, current_date - 2, 1, '411111', '4242', now() - interval '1 hour',
       now() + interval '71 hours'
     from cases.alert_descriptors d where d.merchant_id = $1 and (d.mid_id is not null) = $3 order by d.id desc limit 1
     returning id`,
    [A1, orderId, mapped],
  );
  return Number(rows[0]!.id);
}

async function searchFor(page: Page, text: string) {
  await page.getByTestId('alerts-search').fill(text);
  await page.getByTestId('alerts-grid').getByText(text, { exact: true }).first().waitFor();
}

/** AG Grid renders the columns in view only: scroll the body sideways. */
async function scrollGrid(page: Page, left: number) {
  await page.evaluate((x) => {
    const el = document.querySelector('[data-testid="alerts-grid"] .ag-body-horizontal-scroll-viewport');
    if (el) el.scrollLeft = x;
  }, left);
}

describe('alerts grid', () => {
  it('a self-service merchant marks an outcome, confirms completion, selects a MID and reads the history', async () => {
    const markedId = await newAlert('E2E-ALERT-1', true);
    const unmappedId = await newAlert('E2E-ALERT-2', false);
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/alerts');
      await page.getByTestId('alerts-grid').waitFor();
      await expect.poll(() => page.getByTestId('alerts-service-level').textContent()).toBe('Self Service');
      // Pinned right and the first columns are always rendered (the middle ones are virtualised).
      for (const header of ['Account', 'Alert ID', 'Source', 'Outcome', 'Actions'])
        await page.getByRole('columnheader', { name: header, exact: true }).first().waitFor();
      await screenshot(page, 'alerts-grid');

      // Mark Outcome: a refund outcome needs its three details before Complete is enabled.
      await searchFor(page, 'E2E-ALERT-1');
      await page.getByTestId(`mark-${markedId}`).click();
      const dialog = page.getByTestId('mark-outcome-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('outcome-select').selectOption({ label: 'Refunded' });
      expect(await dialog.getByTestId('mark-outcome-submit').isDisabled()).toBe(true);
      await expect.poll(() => dialog.getByText('This field is required').count()).toBe(2);
      await dialog.locator('input[name="refund_id"]').fill('RF-E2E-1');
      await dialog.locator('input[name="customer_name"]').fill('Jamie Doe');
      await screenshot(page, 'alerts-mark-outcome');
      await dialog.getByTestId('mark-outcome-submit').click();
      await page.getByText(`Alert record ${markedId} has been marked.`).waitFor();
      await dialog.waitFor({ state: 'detached' });

      // Confirm Completion: final; the row then says 'Already Completed'.
      await page.getByTestId(`complete-${markedId}`).click();
      await page.getByTestId('confirm-completion-dialog').waitFor();
      await page.getByTestId('confirm-completion').click();
      await page.getByText(`Alert record ${markedId} has been completed.`).waitFor();
      await page.getByTestId(`completed-${markedId}`).waitFor();
      const stored = await world.t.db.query(
        'select outcome_id, refund_id, customer_name, completed, completed_username from cases.alerts where id = $1',
        [markedId],
      );
      expect(stored.rows[0]).toEqual({
        outcome_id: 1,
        refund_id: 'RF-E2E-1',
        customer_name: 'Jamie Doe',
        completed: true,
        completed_username: 'merchant.admin',
      });

      // History of the alert.
      await page.getByTestId(`history-${markedId}`).click();
      const history = page.getByTestId('alert-history-dialog');
      await history.getByTestId('alert-history-table').waitFor();
      expect(await history.textContent()).toContain('Outcome set to Refunded');
      expect(await history.textContent()).toContain('Completed');
      await screenshot(page, 'alerts-history');
      await history.getByRole('button', { name: 'Close', exact: true }).first().click();
      await history.waitFor({ state: 'detached' });

      // Select MID on an alert whose descriptor maps to no MID.
      await searchFor(page, 'E2E-ALERT-2');
      await scrollGrid(page, 900);
      await page.getByTestId(`select-mid-${unmappedId}`).click();
      const midDialog = page.getByTestId('select-mid-dialog');
      await midDialog.waitFor();
      const select = midDialog.getByTestId('mid-select');
      await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
      const value = await select.locator('option').nth(1).getAttribute('value');
      await select.selectOption(value!);
      await midDialog.getByTestId('select-mid-apply').click();
      const { rows } = await world.t.db.query<{ mid: string }>('select mid from cases.mids where id = $1', [
        value,
      ]);
      await page.getByText(`MID ${rows[0]!.mid} successfully applied.`).waitFor();
      await page.getByTestId('alerts-grid').getByText(rows[0]!.mid).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('a read-only user sees the grid with the actions disabled', async () => {
    const id = await newAlert('E2E-ALERT-RO', false);
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'readonly', undefined, '/alerts-new');
      await searchFor(page, 'E2E-ALERT-RO');
      expect(await page.getByTestId(`mark-${id}`).isDisabled()).toBe(true);
      await scrollGrid(page, 900);
      await page.getByTestId('select-mid-disabled').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('a tenant with the alerts iframe feature gets the embedded form with every frame parameter', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'northbank', 'merchant.admin', undefined, '/alerts');
      const frame = page.locator('iframe[title="Alerts"]');
      await frame.waitFor({ state: 'attached' });
      const src = new URL((await frame.getAttribute('src'))!);
      // *.localhost is a development host: the embed host gets the prefix.
      expect(src.host).toBe('dev.alerts.northbank.example');
      for (const key of [
        'client_id',
        'verify_token',
        'theme',
        'username',
        'email',
        'first_name',
        'last_name',
        'identity',
        'session_token',
        'redirect_host',
      ])
        expect(src.searchParams.get(key), key).toBeTruthy();
      expect(src.searchParams.get('username')).toBe('merchant.admin');
    } finally {
      await context.close();
    }
  });
});
