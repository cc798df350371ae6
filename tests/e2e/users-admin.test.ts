/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { openRowMenuItem, signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Issue 16: an administrator walks the users screens of spec 3 §2 against the
 * full stack (gateway, services, Postgres, Redis, Chromium): add (with a
 * refused email domain), edit, lock and unlock, site and MID permissions,
 * temporary password, Login As and Back as; a read-only user finds every
 * action disabled.
 */
/** The machine is shared: give the UI time (expect.poll defaults to 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
let world: WebWorld;
const ACME = demoTenant('acme');
const id = (username: string) =>
  demoUserId(
    ACME,
    DEMO_USERS.find((u) => u.username === username)!,
  );
let activeMid: string;

beforeAll(async () => {
  world = await startWebWorld();
  // One active MID (status id 2) for merchantA1, the company of merchant.user.
  const { rows } = await world.t.db.query<{ id: string; mid: string }>(
    `select id, mid from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 1`,
    [demoMerchantId(ACME, 'merchantA1')],
  );
  activeMid = rows[0]!.mid;
  await world.t.db.query(`update cases.mids set status_id = 2 where id = $1`, [rows[0]!.id]);
}, 180_000);
afterAll(async () => {
  await world?.close();
});

const row = (page: Page, username: string) =>
  page.locator(`[data-testid="user-row"][data-username="${username}"]`);
/** Waits for a toast; when it never comes, the error names the toasts that did (an error toast, say). */
async function toast(page: Page, text: string) {
  try {
    await page.getByText(text, { exact: true }).first().waitFor();
  } catch (e) {
    const shown = await page.locator('[data-scope="toast"][data-part="title"]').allTextContents();
    throw new Error(`${(e as Error).message}\ntoasts on screen: ${JSON.stringify(shown)}`);
  }
}
/**
 * Flips a row's lock switch once it takes clicks again. The switch is disabled while a change is pending, and the
 * answer's toast and refetched row can render a moment before that flag clears; a click on a disabled switch (a
 * label, which Playwright counts as enabled) would be lost.
 */
async function flipLock(userRow: Locator) {
  await poll(() => userRow.locator('[data-testid="lock-toggle"] input').isEnabled()).toBe(true);
  await userRow.getByTestId('lock-toggle').click();
}

/** A user's row menu (issue 29.3: one menu instead of five buttons per row). */
const menuFor = (username: string) => `Actions for ${username}`;
/** Picks an item of a user's row menu. */
const rowAction = (page: Page, username: string, item: string) =>
  openRowMenuItem(page, menuFor(username), item);
/** Whether each item of a user's row menu is disabled (the menu is opened, read and closed). */
async function menuItemsDisabled(page: Page, username: string, items: string[]) {
  await page.getByRole('button', { name: menuFor(username), exact: true }).click();
  const menu = page.locator(`[data-testid="user-menu"][data-username="${username}"]`);
  await menu.waitFor();
  const disabled: Record<string, boolean> = {};
  for (const item of items)
    disabled[item] = await menu.getByRole('menuitem', { name: item, exact: true }).isDisabled();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return disabled;
}

async function searchUsers(page: Page, text: string) {
  await page.getByTestId('users-search').fill(text);
  await poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
}

describe('users administration', () => {
  it('an admin adds (domain refused first), edits, locks, unlocks, sets permissions and resets a user', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/users');
      await row(page, 'merchant.admin').waitFor();
      // Own row: no lock, no temporary password, no site permissions, no Login As.
      const self = row(page, 'admin');
      await searchUsers(page, 'admin');
      await self.waitFor();
      expect(
        await menuItemsDisabled(page, 'admin', ['Site Permissions', 'Temporary Password', 'Login As']),
      ).toEqual({ 'Site Permissions': true, 'Temporary Password': true, 'Login As': true });
      await screenshot(page, 'users-grid');

      // Add User.
      await page.getByTestId('add-user').click();
      await poll(() => page.getByTestId('user-form-title').textContent()).toBe('Add User');
      expect(await page.getByTestId('role-select').isDisabled()).toBe(true);
      await page.locator('input[name="firstName"]').fill('Erin');
      await page.locator('input[name="lastName"]').fill('Endtoend');
      await page.locator('input[name="username"]').fill('erin.e2e');
      await page.getByTestId('company-input').fill('B');
      await page.getByText('Please enter 2 or more characters').waitFor();
      await page.getByTestId('company-input').fill('Blue Sky');
      await page.getByTestId('company-option').filter({ hasText: 'Blue Sky Outfitters' }).click();
      await poll(() => page.getByTestId('role-select').isDisabled()).toBe(false);
      await poll(() => page.getByTestId('role-select').locator('option').count()).toBeGreaterThan(1);
      await page.getByTestId('role-select').selectOption({ label: 'Merchant User' });
      await page.locator('input[name="email"]').fill('erin@elsewhere.test');
      await page.getByTestId('save-user').click();
      await expect
        .poll(() => page.getByTestId('email-error').textContent())
        .toBe('Please enter an allowed email domain.');
      await screenshot(page, 'user-form-refused-domain');
      await page.locator('input[name="email"]').fill('erin@bluesky.example');
      await page.getByTestId('save-user').click();
      await page.getByTestId('user-saved-banner').waitFor();
      expect(await page.getByTestId('user-saved-banner').textContent()).toContain(
        'You successfully updated/created the user.',
      );
      // The banner hides after 3 seconds.
      await page.getByTestId('user-saved-banner').waitFor({ state: 'detached', timeout: 6000 });
      const created = await world.t.db.query<{ id: string; status_id: number }>(
        `select id, status_id from users.users where tenant = 'acme' and username = 'erin.e2e'`,
      );
      expect(created.rows).toHaveLength(1);
      const newId = Number(created.rows[0]!.id);

      // Edit.
      await searchUsers(page, 'erin.e2e');
      await rowAction(page, 'erin.e2e', 'Edit');
      await poll(() => page.getByTestId('user-form-title').textContent()).toBe('Edit User');
      expect(await page.locator('input[name="username"]').isDisabled()).toBe(true);
      await page.locator('input[name="firstName"]').fill('Erina');
      await page.getByTestId('save-user').click();
      await page.getByTestId('user-saved-banner').waitFor();
      const edited = await world.t.db.query<{ fname: string }>(
        `select fname from users.users where id = $1`,
        [newId],
      );
      expect(edited.rows[0]!.fname).toBe('Erina');

      // Lock and unlock.
      await searchUsers(page, 'erin.e2e');
      const erin = row(page, 'erin.e2e');
      await flipLock(erin);
      await toast(page, 'User has been successfully locked.');
      await poll(() => erin.getByTestId('user-status').textContent()).toBe('Inactive');
      await flipLock(erin);
      await toast(page, 'User has been successfully unlocked.');
      await poll(() => erin.getByTestId('user-status').textContent()).toBe('Active');

      // Site permissions.
      await rowAction(page, 'erin.e2e', 'Site Permissions');
      const dialog = page.getByTestId('site-permissions-dialog');
      await dialog.waitFor();
      const box = dialog.locator('[data-testid="site-permission"][data-alias="REPORTS"]');
      await box.click();
      await toast(page, 'Site permission was successfully updated.');
      const overrides = await world.t.db.query<{ is_allowed: boolean }>(
        `select ur.is_allowed from users.user_resources ur join users.resources r on r.id = ur.resource_id
          where ur.user_id = $1 and r.alias = 'REPORTS'`,
        [newId],
      );
      expect(overrides.rows).toHaveLength(1);
      await screenshot(page, 'site-permissions-dialog');
      await dialog.getByTestId('site-permissions-close').click();
      await dialog.waitFor({ state: 'detached' });

      // Temporary password.
      await rowAction(page, 'erin.e2e', 'Temporary Password');
      await toast(page, 'Successfully reset user: Erina Endtoend');

      // MID permissions of merchant.user: an active MID of their company, then cleared.
      await searchUsers(page, 'merchant.user');
      await rowAction(page, 'merchant.user', 'MID Permissions');
      const mids = page.getByTestId('mid-permissions-dialog');
      await mids.waitFor();
      await poll(() => mids.getByTestId('mids-scope').textContent()).toContain('all MIDs');
      await mids.locator(`[data-testid="mid-option"][data-mid="${activeMid}"]`).click();
      await poll(() => mids.getByTestId('mid-tag').count()).toBe(1);
      await screenshot(page, 'mid-permissions-dialog');
      await mids.getByTestId('save-mids').click();
      await toast(page, 'Mid permissions were successfully updated.');
      const allowed = await world.t.db.query<{ mid: string }>(
        `select mid from users.user_mids where user_id = $1 and not is_excluded`,
        [id('merchant.user')],
      );
      expect(allowed.rows.map((r) => r.mid)).toEqual([activeMid]);
      await rowAction(page, 'merchant.user', 'MID Permissions');
      await mids.waitFor();
      await poll(() => mids.getByTestId('mid-tag').count()).toBe(1);
      await mids.getByTestId('clear-mids').click();
      // The first save's toast may still show: wait for the stored lists instead.
      await poll(
        async () =>
          (await world.t.db.query(`select 1 from users.user_mids where user_id = $1`, [id('merchant.user')]))
            .rows.length,
      ).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('an admin logs in as a merchant admin and comes back', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'admin', undefined, '/users');
      await searchUsers(page, 'merchant.admin');
      await rowAction(page, 'merchant.admin', 'Login As');
      await poll(() => page.getByTestId('user-name').textContent()).toBe('Mia Admin');
      await page.getByTestId('back-as').waitFor();
      expect(await page.getByTestId('back-as').textContent()).toMatch(/^Back as /);
      await screenshot(page, 'login-as');
      await page.getByTestId('back-as').click();
      await poll(() => new URL(page.url()).pathname).toBe('/users');
      await page.getByTestId('back-as').waitFor({ state: 'detached' });
      const admin = DEMO_USERS.find((u) => u.username === 'admin')!;
      await expect
        .poll(() => page.getByTestId('user-name').textContent())
        .toBe(`${admin.fname} ${admin.lname}`);
    } finally {
      await context.close();
    }
  });

  it('the data-grid variant lists users on AG Grid; removing all MID access locks after confirmation', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'northbank', 'admin', undefined, '/users-new');
      const grid = page.getByTestId('users-grid');
      await grid.locator('.ag-row').first().waitFor();
      await searchUsers(page, 'merchant.user');
      const gridRow = grid.locator('.ag-row', { hasText: 'merchant.user' });
      await gridRow.getByRole('button', { name: menuFor('merchant.user') }).waitFor();
      await poll(() => grid.locator('.ag-row').count()).toBe(1);
      await screenshot(page, 'users-new-grid');
      await rowAction(page, 'merchant.user', 'MID Permissions');
      const dialog = page.getByTestId('mid-permissions-dialog');
      await dialog.getByTestId('remove-access').click();
      await dialog.getByTestId('remove-access-confirm-text').waitFor();
      await dialog.getByTestId('remove-access-confirm').click();
      await toast(page, 'User has been successfully locked.');
      const nb = demoTenant('northbank');
      const target = demoUserId(
        nb,
        DEMO_USERS.find((u) => u.username === 'merchant.user')!,
      );
      const status = await world.t.db.query<{ status_id: number }>(
        `select status_id from users.users where id = $1`,
        [target],
      );
      expect(status.rows[0]!.status_id).toBe(6);
      await poll(() =>
        grid.locator('.ag-row', { hasText: 'merchant.user' }).getByTestId('user-status').textContent(),
      ).toBe('Inactive');
    } finally {
      await context.close();
    }
  });

  it('a read-only user finds every action disabled', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'readonly', undefined, '/users');
      await row(page, 'merchant.user').waitFor();
      expect(await page.getByTestId('add-user').isDisabled()).toBe(true);
      const r = row(page, 'merchant.user');
      const actions = ['Edit', 'Site Permissions', 'Temporary Password', 'MID Permissions'];
      expect(await menuItemsDisabled(page, 'merchant.user', actions)).toEqual(
        Object.fromEntries(actions.map((a) => [a, true])),
      );
      expect(await r.locator('[data-testid="lock-toggle"] input').isDisabled()).toBe(true);
      await screenshot(page, 'users-read-only');
    } finally {
      await context.close();
    }
  });
});
