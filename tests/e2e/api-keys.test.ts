/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '@portal/contracts';
import { createPortalClient } from '../../packages/client/src/index';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Issue 35.1 and 35.3: a merchant admin creates an API key on /api-keys (the
 * key shown once), lists cases with it through the generated client
 * (@portal/client), revokes it in the browser, and the next call with it is
 * refused (401). (The gateway's address without a tenant's name is acme's.)
 */
let world: WebWorld;
beforeAll(async () => {
  world = await startWebWorld();
}, 180_000);
afterAll(async () => world?.close());

describe('API keys screen', () => {
  it('creates a key, uses it, revokes it', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/api-keys');
      await page.getByTestId('api-keys').waitFor();
      await page.getByRole('button', { name: 'Create API Key' }).click();
      const dialog = page.getByTestId('create-api-key-dialog');
      const create = dialog.getByRole('button', { name: 'Create' });
      await dialog.locator('input[name="name"]').fill('Order system');
      expect(await create.isDisabled()).toBe(true);
      await dialog.getByTestId('scope-cases:read').click();
      await screenshot(page, 'h35-api-keys-create');
      await create.click();

      const created = page.getByTestId('api-key-created-dialog');
      const secret = (await created.getByTestId('api-key-secret').textContent())!.trim();
      expect(secret).toMatch(API_KEY_PATTERN);
      await created.getByText('it is shown only once').waitFor();
      await screenshot(page, 'h35-api-keys-secret');
      await created.getByRole('button', { name: 'Done' }).click();

      const list = page.getByTestId('api-key-list');
      await expect.poll(() => list.textContent()).toContain('Order system');
      expect(await list.textContent()).toContain(`…${secret.slice(-4)}`);
      expect(await page.content()).not.toContain(secret);

      const portal = createPortalClient({ baseUrl: world.stack.gatewayUrl, apiKey: secret });
      const cases = () => portal.cases.GET('/cm/cases', { params: { query: { limit: 5 } } });
      const first = await cases();
      expect(first.response.status).toBe(200);
      expect(first.data!.data.length).toBeGreaterThan(0);
      // Only its scope: the key reads cases, not the users.
      expect((await portal.users.GET('/users/users', {})).response.status).toBe(403);

      // The last use shows after a reload.
      await page.reload();
      await expect.poll(() => page.getByTestId('api-key-list').textContent()).toContain('127.0.0.1');
      await screenshot(page, 'h35-api-keys-list');

      await page.getByTestId('api-key-list').getByRole('button', { name: 'Revoke' }).click();
      await page.getByTestId('revoke-api-key-dialog').getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('The API key Order system was revoked.').first().waitFor();
      await expect.poll(() => page.getByTestId('api-key-list').textContent()).toContain('Revoked');
      await screenshot(page, 'h35-api-keys-revoked');

      const after = await cases();
      expect(after.response.status).toBe(401);
      expect((after.error as { message?: string } | undefined)?.message).toBe('The API key is not valid.');
    } finally {
      await context.close();
    }
  });
});
