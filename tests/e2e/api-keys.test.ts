/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '@portal/contracts';
import { createPortalClient } from '../../packages/client/src/index';
import { screenshot } from '../support/browser';
import { goInApp, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Issue 35.1 and 35.3: a merchant admin creates an API key on /api-keys (the
 * key shown once), lists cases with it through the generated client
 * (@portal/client), revokes it in the browser, and the next call with it is
 * refused (401). (The gateway's address without a tenant's name is acme's.)
 * API Documentation's 'Try it out' sends a key given in Authorize, not the
 * session's token: the request carries the key, and once it is revoked the
 * same call is refused.
 */
let world: WebWorld;
beforeAll(async () => {
  world = await startWebWorld();
}, 180_000);
afterAll(async () => world?.close());

/**
 * On API Documentation (Swagger UI): Authorize with `key` under apiKeyAuth, then 'Try it out' and
 * 'Execute' the list of cases. Answers the Authorization header the browser sent and the answer shown.
 */
async function tryCasesWithKey(page: Page, key: string, shot: string) {
  await goInApp(page, '/resource-api-documentation');
  const viewer = page.getByTestId('api-docs-viewer');
  await viewer.locator('.opblock-tag').first().waitFor({ timeout: 60_000 });
  await viewer.locator('.auth-wrapper button.authorize').click();
  // A form of its own per security alternative of the document (bearerAuth, apiKeyAuth).
  const scheme = viewer
    .locator('.dialog-ux .auth-container')
    .filter({ has: page.locator('h4 > code', { hasText: /^apiKeyAuth$/ }) });
  await scheme.getByLabel('auth-bearer-value').fill(key);
  await scheme.getByRole('button', { name: 'Apply credentials' }).click();
  await scheme.getByRole('heading', { name: 'Authorized' }).waitFor();
  await screenshot(page, `${shot}-authorized`);
  await scheme.getByRole('button', { name: 'Close' }).click();
  await viewer.locator('.dialog-ux').waitFor({ state: 'detached' });

  // Tags are folded: open 'cases', then its GET of the list (not /cm/cases/{id}).
  await viewer.locator('.opblock-tag[data-tag="cases"]').click();
  const call = viewer
    .locator('.opblock-get')
    .filter({ has: page.locator('.opblock-summary-path[data-path="/cm/cases"]') });
  await call.locator('.opblock-summary-control').click();
  await call.getByRole('button', { name: 'Try it out' }).click();
  const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/cm/cases');
  await call.getByRole('button', { name: 'Execute' }).click();
  const request = await sent;
  // The live answer's row (its header row has a .response-col_status cell too).
  const answer = call.locator('.live-responses-table tbody tr.response');
  await answer.waitFor();
  await screenshot(page, shot);
  return {
    authorization: await request.headerValue('authorization'),
    // The code, without the 'Undocumented' note Swagger UI adds after a code the document does not list.
    status: await answer.locator('.response-col_status').evaluate((td) => td.firstChild?.textContent),
    body: JSON.parse((await answer.locator('.highlight-code pre').textContent())!) as unknown,
  };
}

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

      // Tried on API Documentation: Authorize sends the key (the session's token would list cases too).
      const tried = await tryCasesWithKey(page, secret, 'h35-api-docs-key');
      expect(tried.authorization).toBe(`Bearer ${secret}`);
      expect(tried.status).toBe('200');
      const shown = tried.body as { data: { case_no: string }[]; pagination: { total: number } };
      expect(shown.data.length).toBeGreaterThan(0);
      expect(shown.data[0]!.case_no).toBeTruthy();
      expect(shown.pagination.total).toBe(first.data!.pagination.total);
      await goInApp(page, '/api-keys');

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
      // The same 'Execute' is refused now: the key, not the session, was the credential.
      const revoked = await tryCasesWithKey(page, secret, 'h35-api-docs-key-revoked');
      expect(revoked.authorization).toBe(`Bearer ${secret}`);
      expect(revoked.status).toBe('401');
      expect(revoked.body).toMatchObject({ message: 'The API key is not valid.' });
    } finally {
      await context.close();
    }
  }, 180_000);
});
