/// <reference lib="dom" />
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { apiAs, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';
import { TestReceiver } from '../integration/webhooks/receiver';

/**
 * Issue 19: a merchant admin registers a webhook endpoint on /webhooks (the
 * secret shown once), a case status change is delivered signed to a local
 * receiver, the delivery shows in the grid and is redelivered from it.
 */
let world: WebWorld;
const receiver = new TestReceiver();
beforeAll(async () => {
  // The receiver listens on loopback: allow-listed as an operator would for an internal receiver.
  world = await startWebWorld({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, undefined, {
    worker: { pollingIntervalSeconds: 0.5 },
  });
  await receiver.start('127.0.0.1');
}, 180_000);
afterAll(async () => {
  await world?.close();
  await receiver.close();
});

describe('webhooks screen', () => {
  it('registers an endpoint, shows a delivery and redelivers it', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/webhooks');
      await page.getByTestId('webhooks').waitFor();
      await page.getByRole('button', { name: 'Register Endpoint' }).click();
      const dialog = page.getByTestId('register-webhook-dialog');
      const register = dialog.getByRole('button', { name: 'Register' });
      await dialog.locator('input[name="url"]').fill(`${receiver.url}/portal`);
      await dialog.locator('input[name="description"]').fill('Back office');
      expect(await register.isDisabled()).toBe(true);
      await dialog.getByTestId('event-CASE_STATUS_CHANGED').click();
      await screenshot(page, 'h19-webhooks-register');
      await register.click();

      const secretDialog = page.getByTestId('webhook-secret-dialog');
      const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await secretDialog.getByText('it will not be shown again').waitFor();
      await screenshot(page, 'h19-webhooks-secret');
      await secretDialog.getByRole('button', { name: 'Done' }).click();
      const table = page.getByTestId('webhook-endpoints');
      await expect.poll(() => table.textContent()).toContain(`${receiver.url}/portal`);
      expect(await table.textContent()).toContain(`…${secret.slice(-4)}`);
      const row = await table.locator('tbody tr').first().textContent();
      expect(row).toContain('CASE_STATUS_CHANGED');
      expect(row).not.toContain('CASE_CREATED');
      expect(await page.content()).not.toContain(secret);

      // A case of the admin's merchant changes status through the API (as staff would).
      const acme = demoTenant('acme');
      const { rows } = await world.t.db.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' and merchant_id = $1 and status_id = 1 order by id limit 1`,
        [demoMerchantId(acme, 'merchantA1')],
      );
      const caseId = Number(rows[0]!.id);
      const manager = await apiAs(world, 'acme', 'manager');
      await manager('/cm/cases/ui/status', {
        method: 'PATCH',
        body: { cases: [{ id: caseId, status_id: 2 }] },
      });
      const [got] = await receiver.waitFor(1, 30_000);
      const payload = JSON.parse(got!.body);
      expect(payload).toMatchObject({
        type: 'CASE_STATUS_CHANGED',
        data: { case_id: caseId, status: 'Working' },
      });
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(got!.headers['portal-signature']))!;
      expect(createHmac('sha256', secret).update(`${t}.${got!.body}`).digest('hex')).toBe(v1);

      const grid = page.getByTestId('webhook-deliveries-grid');
      const refresh = page.getByTestId('webhook-deliveries').getByRole('button', { name: 'Refresh' });
      const cell = (col: string) => grid.locator(`.ag-row [col-id="${col}"]`).first().textContent();
      /** The newest delivery's cells, read after a refresh (the worker finishes in the background). */
      const newest = async () => {
        await refresh.click();
        await page.waitForTimeout(500);
        return [
          await cell('event_type'),
          await cell('state'),
          await cell('response_code'),
          await cell('attempts'),
        ];
      };
      await expect
        .poll(newest, { timeout: 20_000 })
        .toEqual(['CASE_STATUS_CHANGED', 'succeeded', '200', '1']);
      await screenshot(page, 'h19-webhooks-deliveries');

      await grid.getByRole('button', { name: 'Redeliver' }).first().click();
      await page.getByText('The delivery was queued again.').first().waitFor();
      const again = await receiver.waitFor(2, 30_000);
      expect(JSON.parse(again[1]!.body).id).toBe(payload.id);
      await expect
        .poll(newest, { timeout: 20_000 })
        .toEqual(['CASE_STATUS_CHANGED', 'succeeded', '200', '2']);
      await screenshot(page, 'h19-webhooks-redelivered');

      await page.getByRole('button', { name: 'Send Test Event' }).click();
      await page.getByText('A test event was queued for delivery.').first().waitFor();
      const third = await receiver.waitFor(3, 30_000);
      expect(JSON.parse(third[2]!.body)).toMatchObject({ type: 'WEBHOOK_TEST', tenant: 'acme' });
      await expect.poll(newest, { timeout: 20_000 }).toEqual(['WEBHOOK_TEST', 'succeeded', '200', '1']);
      await screenshot(page, 'h19-webhooks-test-event');

      // Disable, then delete after confirming.
      await table.getByRole('button', { name: 'Disable' }).click();
      await expect.poll(() => table.textContent()).toContain('Disabled');
      await table.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByTestId('delete-webhook-dialog');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('The webhook endpoint was deleted.').first().waitFor();
      await page.getByText('No webhook endpoints yet.').waitFor();
    } finally {
      await context.close();
    }
  }, 150_000);
});
