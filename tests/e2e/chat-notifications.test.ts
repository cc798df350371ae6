/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';
import { TestReceiver } from '../integration/webhooks/receiver';

/**
 * Issue 35.4: a merchant admin adds a Slack destination on /webhooks and sends it a test message,
 * which a local stand-in receives in Slack's format. CHAT_WEBHOOK_HOSTS (environment only) points the
 * Slack host list at the stand-in; its loopback network is allow-listed as for webhooks.
 */
let world: WebWorld;
const slack = new TestReceiver();
beforeAll(async () => {
  world = await startWebWorld(
    { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', CHAT_WEBHOOK_HOSTS: '127.0.0.1' },
    undefined,
    { worker: { pollingIntervalSeconds: 0.5 } },
  );
  await slack.start('127.0.0.1');
}, 180_000);
afterAll(async () => {
  await world?.close();
  await slack.close();
});

describe('chat destinations on the webhooks screen', () => {
  it('adds a Slack destination and sends it a test message', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/webhooks');
      await page.getByTestId('webhooks').waitFor();
      await page.getByRole('button', { name: 'Add Chat Destination' }).click();
      const dialog = page.getByTestId('add-chat-destination-dialog');
      await dialog.getByTestId('chat-tool').selectOption('slack');
      const add = dialog.getByRole('button', { name: 'Add' });

      // Another host is refused by the server, with its message.
      await dialog.locator('input[name="chat-url"]').fill('https://example.com/services/T0/B0/x');
      await add.click();
      await dialog
        .getByTestId('add-chat-destination-error')
        .getByText('A Slack destination must be an incoming-webhook URL of hooks.slack.com.')
        .waitFor();

      await dialog.locator('input[name="chat-url"]').fill(`${slack.url}/services/T0/B0/portal`);
      await dialog.locator('input[name="chat-description"]').fill('#disputes');
      await screenshot(page, 'h35-chat-add-slack');
      await add.click();
      await page.getByText('The chat destination was added.').first().waitFor();

      const table = page.getByTestId('webhook-endpoints');
      await expect.poll(() => table.textContent()).toContain(`${slack.url}/services/T0/B0/portal`);
      const row = (await table.locator('tbody tr').first().textContent()) ?? '';
      expect(row).toContain('Slack');
      expect(row).toContain('CASE_CREATED');
      expect(row).toContain('DEADLINE_DIGEST');

      await page.getByRole('button', { name: 'Send Test Message' }).click();
      await page.getByText('A test message was queued for delivery.').first().waitFor();
      const [got] = await slack.waitFor(1, 30_000);
      expect(got!.path).toBe('/services/T0/B0/portal');
      const body = JSON.parse(got!.body) as { text: string; blocks: { type: string }[] };
      expect(body.text).toBe('Test message from the chargeback portal');
      expect(body.blocks.map((b) => b.type)).toEqual(['section', 'section', 'actions']);
      expect(got!.headers['portal-signature']).toBeUndefined();

      const grid = page.getByTestId('webhook-deliveries-grid');
      const refresh = page.getByTestId('webhook-deliveries').getByRole('button', { name: 'Refresh' });
      const cell = (col: string) => grid.locator(`.ag-row [col-id="${col}"]`).first().textContent();
      await expect
        .poll(
          async () => {
            await refresh.click();
            await page.waitForTimeout(500);
            return [await cell('event_type'), await cell('state'), await cell('response_code')];
          },
          { timeout: 20_000 },
        )
        .toEqual(['WEBHOOK_TEST', 'succeeded', '200']);
      await screenshot(page, 'h35-chat-test-message');
    } finally {
      await context.close();
    }
  }, 150_000);
});
