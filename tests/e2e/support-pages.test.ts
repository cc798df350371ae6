/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, useWebWorld } from '../support/e2e-web';

/** Issue 19: Help with its in-app messages, API Documentation and the Features page, as users open them. */
const world = useWebWorld();

/** CSP violations reported on the page (Swagger UI runs under the strict style-src). */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.effectiveDirective} ${e.blockedURI || 'inline'}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

describe('support pages', () => {
  it('Help shows the last applicable message first, then the earlier one, then the topic cards', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'merchant.admin', undefined, '/help');
      const dialog = page.getByTestId('message-dialog');
      await dialog.getByText('New: pre-chargeback alerts').waitFor({ timeout: 20_000 });
      await screenshot(page, 'h19-help-message');
      await dialog.getByRole('button', { name: 'Not now' }).click();
      await dialog.getByText('Help topics for every screen').waitFor();
      await dialog.getByRole('button', { name: 'Got it' }).click();
      await dialog.waitFor({ state: 'detached' });
      const cards = page.getByTestId('help-topic');
      await expect.poll(() => cards.count()).toBe(9);
      await page.getByRole('heading', { name: 'Review and Response Features' }).waitFor();
      await page.getByRole('link', { name: 'Open Alerts' }).waitFor();
      await screenshot(page, 'h19-help');
      // Both actions were posted: a reload shows no message.
      const acted = await world.t.db.query<{ action: string }>(
        `select a.action from users.message_actions a join users.users u on u.id = a.user_id
          where u.tenant = 'acme' and u.username = 'merchant.admin' order by a.message_id`,
      );
      expect(acted.rows.map((r) => r.action).sort()).toEqual(['accept', 'deny']);
      await page.reload();
      await page.getByTestId('help').waitFor();
      await page.waitForTimeout(1000);
      expect(await dialog.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('API Documentation collapses the sidebar and renders every document with Swagger UI under the CSP', async () => {
    const { context, page } = await world.newPage();
    const violations = await watchCsp(page);
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/dashboard');
      await page.getByRole('button', { name: 'Support' }).click();
      await page.getByTestId('menu-resource-api-documentation').click();
      await page.waitForURL('**/resource-api-documentation');
      await page.getByRole('button', { name: 'Open menu' }).waitFor();
      const viewer = page.getByTestId('api-docs-viewer');
      // One folded section per tag; opening one lists its calls.
      await expect
        .poll(() => viewer.locator('.opblock-tag').count(), { timeout: 60_000 })
        .toBeGreaterThan(10);
      await viewer.locator('.opblock-tag', { hasText: 'cases' }).first().click();
      await expect.poll(() => viewer.locator('.opblock').count(), { timeout: 30_000 }).toBeGreaterThan(5);
      expect(await viewer.textContent()).toContain('/cm/cases/{id}');
      await screenshot(page, 'h19-api-docs');
      await page.getByTestId('api-docs-select').selectOption('user');
      await expect.poll(() => viewer.textContent(), { timeout: 60_000 }).toContain('User service');
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('Features shows the tenant, its flags, each role’s features and menus; only for staff holding it', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/features');
      await page.getByTestId('features-page').waitFor();
      await page.getByTestId('features-flags').waitFor();
      expect(await page.getByTestId('features-tenant').textContent()).toContain('Menu variant');
      await page.getByRole('tab', { name: 'Features by role' }).click();
      const matrix = page.getByTestId('features-matrix');
      const row = matrix.locator('tr[data-alias="features-list"]');
      await row.waitFor();
      expect(await row.locator('td[data-role="cb911_admin"]').getAttribute('data-on')).toBe('true');
      expect(await row.locator('td[data-role="merchant_user"]').getAttribute('data-on')).toBe('false');
      await screenshot(page, 'h19-features-matrix');
      await page.getByRole('tab', { name: 'Menus by role' }).click();
      const merchantUserMenu = page.getByTestId('features-menus').locator('[data-role="merchant_user"]');
      await merchantUserMenu.getByText('Dashboard').first().waitFor();
      expect(await merchantUserMenu.textContent()).not.toContain('Features');
      await screenshot(page, 'h19-features-menus');
    } finally {
      await context.close();
    }
    const other = await world.newPage();
    try {
      await signInToShell(other.page, world, 'acme', 'merchant.admin', undefined, '/features');
      await other.page.waitForURL('**/not-found');
    } finally {
      await other.context.close();
    }
  });
});
