/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/**
 * Issue 16: Profile Settings (spec 3 §2): email, password with the policy,
 * the four notifications and the login history with Lock/Unlock per IP and
 * unique logins, against the full stack in Chromium.
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

beforeAll(async () => {
  world = await startWebWorld();
}, 180_000);
afterAll(async () => {
  await world?.close();
});

describe('profile settings', () => {
  it('a user changes email, a notification and the password, and locks and unlocks an IP', async () => {
    const { context, page } = await world.newPage();
    const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();
    try {
      await signInToShell(page, world, 'acme', 'merchant.user', undefined, '/settings');
      await page.getByTestId('profile-settings').waitFor();

      // Email: checked as typed, saved, stored.
      const email = page.locator('input[name="profile-email"]');
      await email.fill('not-an-email');
      await page.getByText('A valid email is required.').waitFor();
      expect(await page.getByTestId('save-email').isDisabled()).toBe(true);
      await email.fill('max.user@bluesky.example');
      await page.getByTestId('save-email').click();
      await toast('Your email has been successfully updated.');
      const stored = await world.t.db.query<{ email: string }>(
        `select email from users.users where id = $1`,
        [id('merchant.user')],
      );
      expect(stored.rows[0]!.email).toBe('max.user@bluesky.example');

      // Notifications: 4, one toggled.
      const switches = page.getByTestId('notification');
      await poll(() => switches.count()).toBe(4);
      const first = switches.first();
      const alias = await first.getAttribute('data-alias');
      const before = await first.locator('input').isChecked();
      await first.click();
      await toast('Notification was successfully updated.');
      const setting = await world.t.db.query<{ is_enabled: boolean }>(
        `select un.is_enabled from users.user_notifications un join users.notification_types n on n.id = un.notification_id
          where un.user_id = $1 and n.alias = $2`,
        [id('merchant.user'), alias],
      );
      expect(setting.rows[0]!.is_enabled).toBe(!before);

      // Time zone (deadline reminders): chosen, saved, stored; Save is off until it changes.
      const save = page.getByTestId('save-time-zone');
      expect(await save.isDisabled()).toBe(true);
      await page.locator('select[name="time_zone"]').selectOption('Asia/Tokyo');
      await save.click();
      await toast('Your time zone has been successfully updated.');
      const zone = await world.t.db.query<{ time_zone: string }>(
        `select time_zone from users.users where id = $1`,
        [id('merchant.user')],
      );
      expect(zone.rows[0]!.time_zone).toBe('Asia/Tokyo');
      expect(await save.isDisabled()).toBe(true);

      // Password: the policy is shown as typed; same as the current one refused; then changed.
      await page.locator('input[name="current_password"]').fill(DEMO_PASSWORD);
      await page.locator('input[name="new_password"]').fill('short');
      await page.getByTestId('password-rules').waitFor();
      expect(await page.getByTestId('save-password').isDisabled()).toBe(true);
      await page.locator('input[name="new_password"]').fill(DEMO_PASSWORD);
      await page.getByText('Current password and new password cannot be the same.').waitFor();
      await page.locator('input[name="new_password"]').fill('Fresh#Profile2026');
      await page.locator('input[name="confirm_password"]').fill('Fresh#Profile2026');
      await page.getByTestId('save-password').click();
      await toast('Password was successfully updated.');

      // Login history: lock, then unlock, the IP of this sign-in; unique logins.
      const rows = page.getByTestId('login-row');
      await rows.first().waitFor();
      const lock = rows.first().getByTestId('ip-lock-toggle');
      expect(await lock.textContent()).toBe('Lock');
      await lock.click();
      await poll(() => rows.first().getByTestId('ip-locked').textContent()).toBe('Yes');
      const blocked = await world.t.db.query(`select 1 from users.blocked_ips where user_id = $1`, [
        id('merchant.user'),
      ]);
      expect(blocked.rows).toHaveLength(1);
      await screenshot(page, 'profile-settings');
      await rows.first().getByTestId('ip-lock-toggle').click();
      await poll(() => rows.first().getByTestId('ip-locked').textContent()).toBe('No');
      await page.getByTestId('unique-logins').click();
      await poll(() => rows.count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('a read-only user cannot lock an IP, change the email or a notification', async () => {
    const { context, page } = await world.newPage();
    try {
      await signInToShell(page, world, 'acme', 'readonly', undefined, '/settings/profile');
      const rows = page.getByTestId('login-row');
      await rows.first().waitFor();
      expect(await rows.first().getByTestId('ip-lock-toggle').isDisabled()).toBe(true);
      expect(await page.getByTestId('save-email').isDisabled()).toBe(true);
      await poll(() => page.getByTestId('notification').count()).toBe(4);
      expect(await page.getByTestId('notification').first().locator('input').isDisabled()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
