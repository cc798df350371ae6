import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  demoTenant,
  demoUserId,
  DEMO_USERS,
  REFRESH_NO_SESSION,
  type TenantBootstrap,
} from '@portal/contracts';
import { demoSsoKeyFile, mintSsoToken } from '../../services/user/src/index';
import { screenshot } from '../support/browser';
import {
  gatewayCall,
  latestResetCode,
  networkQuiet,
  signIn,
  signedInPage,
  signInToShell,
  useWebWorld,
  type TenantId,
} from '../support/e2e-web';

/**
 * The web app against the full stack in Chromium: each tenant's look and
 * menu, the signed-out flows, the top bar rules, impersonation, not-found.
 */
const world = useWebWorld();

async function bootstrapOf(tenant: TenantId): Promise<TenantBootstrap> {
  return (await gatewayCall(world, tenant, '/api/tenant')).json as TenantBootstrap;
}

function rgb(hex: string): string {
  const n = parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

const cssOf = (page: Page, testId: string, prop: string) =>
  page.getByTestId(testId).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

const menuPaths = (page: Page) =>
  page
    .locator('[data-testid="sidebar"] a')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));

/**
 * What the page logs as console errors (Chromium logs every request answered >= 400 as one, e.g. "Failed
 * to load resource: ... 401"), and the status of the start's session check (the refresh call).
 */
function watchStart(page: Page) {
  const seen = { errors: [] as string[], refreshStatus: undefined as number | undefined };
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text());
  });
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/users/auth/refresh') seen.refreshStatus = r.status();
  });
  return seen;
}

async function openAllSections(page: Page) {
  const closed = page.locator('[data-testid="sidebar"] button[aria-expanded="false"]');
  for (let i = 0; i < 20 && (await closed.count()) > 0; i++) await closed.first().click();
}

describe('sign-in and the tenant look', () => {
  it('acme: classic menu, acme colours, title and business name', async () => {
    const look = await bootstrapOf('acme');
    const { context, page } = await world.newPage();
    const start = watchStart(page);
    await page.goto(world.url('acme', '/login'));
    await page.getByTestId('sign-in-form').waitFor();
    await networkQuiet(page);
    // No session yet is not an error: the start's session check answers 204 and the console stays clean.
    expect(start.refreshStatus).toBe(REFRESH_NO_SESSION);
    expect(start.errors).toEqual([]);
    expect(await page.title()).toBe(`Sign In - ${look.site_name}`);
    await screenshot(page, 'acme-sign-in');
    await signInToShell(page, world, 'acme', 'admin');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.title()).toBe(`Dashboard - ${look.site_name}`);
    expect(await page.evaluate(() => document.body.id)).toBe('dashboard');
    expect(await cssOf(page, 'sidebar', 'background-color')).toBe(rgb(look.look.colors.sidebar_bg));
    expect(await page.getByTestId('business-name').textContent()).toBeTruthy();
    expect(await page.getByTestId('user-name').textContent()).toBe('Avery Admin');
    await openAllSections(page);
    const paths = await menuPaths(page);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/dashboard',
        '/chargebacks',
        '/case-management',
        '/reports',
        '/users',
        '/help',
      ]),
    );
    expect(paths.some((p) => p.endsWith('-new'))).toBe(false);
    await page.getByTestId('dashboard').waitFor();
    await screenshot(page, 'acme-admin-shell');
    await context.close();
  });

  it('northbank: data-grid menu (-new paths, no Pre-Chargebacks), northbank colours', async () => {
    const look = await bootstrapOf('northbank');
    expect(look.menu_variant).toBe('data-grid');
    const { context, page } = await signedInPage(world, 'northbank', 'admin');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.title()).toBe(`Dashboard - ${look.site_name}`);
    expect(await cssOf(page, 'sidebar', 'background-color')).toBe(rgb(look.look.colors.sidebar_bg));
    // Sign Out stays readable on the tenant's dark top bar.
    expect(await cssOf(page, 'sign-out', 'color')).toBe(rgb(look.look.colors.topbar_fg));
    await openAllSections(page);
    const paths = await menuPaths(page);
    expect(paths).toContain('/chargebacks-new');
    expect(paths).toContain('/users-new');
    expect(paths).not.toContain('/pre-chargebacks');
    await screenshot(page, 'northbank-admin-shell');
    // The data-grid form of a grid page renders its screen (no placeholder is left, issue 18).
    await page.goto(world.url('northbank', '/mid-health-new'));
    await page.getByTestId('mid-health').waitFor();
    expect(await page.getByTestId('coming-soon').count()).toBe(0);
    await context.close();
  });

  it('northbank partner.user: partner-branded look and the marker on Case Management', async () => {
    const look = await bootstrapOf('northbank');
    const { context, page } = await signedInPage(world, 'northbank', 'partner.user');
    expect(await cssOf(page, 'sidebar', 'background-color')).toBe(rgb(look.variant.look.colors.sidebar_bg));
    expect(await cssOf(page, 'sign-out', 'color')).toBe(rgb(look.variant.look.colors.topbar_fg));
    await openAllSections(page);
    const marker = page.getByTestId('variant-marker');
    expect(await marker.textContent()).toBe(look.variant.menu_marker);
    await screenshot(page, 'northbank-partner-variant');
    await context.close();
  });

  it('small screens: the sidebar is a temporary drawer', async () => {
    const { context, page } = await world.newPage({ width: 420, height: 860 });
    await signInToShell(page, world, 'acme', 'merchant.admin');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('sidebar').waitFor();
    await screenshot(page, 'acme-mobile-drawer');
    await context.close();
  });
});

describe('signed-out flows', () => {
  it('wrong password shows the provider message; empty fields are named', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme'));
    await page.getByLabel('Username').fill('x');
    await page.getByLabel('Username').fill('');
    expect(await page.getByTestId('username-error').textContent()).toBe('Username cannot be empty.');
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect(await page.getByTestId('password-error').textContent()).toBe('Password cannot be empty.');
    await signIn(page, world, 'acme', 'agent', 'Wrong#Password1');
    const error = page.getByTestId('sign-in-error');
    await error.waitFor();
    const text = (await error.textContent()) ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain('PreAuthentication failed with error ');
    await screenshot(page, 'sign-in-wrong-password');
    await context.close();
  });

  it('new password required at first sign-in, then sign in with it', async () => {
    const { context, page } = await world.newPage();
    await signIn(page, world, 'acme', 'newpass');
    await page.getByTestId('new-password-form').waitFor();
    const create = page.getByRole('button', { name: 'Create Password' });
    await page.getByLabel('New Password').fill('short');
    expect(await create.isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="password-rules"] [data-ok="false"]').count()).toBeGreaterThan(0);
    await page.getByLabel('New Password').fill('Brand#New2026');
    await page.getByLabel('Confirm Password').fill('Brand#New2027');
    expect(await page.getByTestId('confirm_password-error').textContent()).toBe('Passwords do not match.');
    await page.getByLabel('Confirm Password').fill('Brand#New2026');
    await screenshot(page, 'new-password-required');
    expect(await create.isDisabled()).toBe(false);
    await create.click();
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-name').textContent()).toBe('Noah Newpass');
    await context.close();
    // The new password works for the next sign-in.
    const second = await world.newPage();
    await signInToShell(second.page, world, 'acme', 'newpass', 'Brand#New2026');
    await second.context.close();
  });

  it('forgot password: code from the mail outbox, new password, sign in', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme'));
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByTestId('reset-password-form').waitFor();
    await screenshot(page, 'reset-password');
    await page.getByLabel('Username').fill('  merchant.user  ');
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByTestId('forgot-password-form').waitFor();
    const change = page.getByRole('button', { name: 'Change Password' });
    await page.getByLabel('Verification Code').fill('1');
    await page.getByLabel('Verification Code').fill('');
    expect(await page.getByTestId('code-error').textContent()).toBe('Verification code cannot be empty.');
    let code: string | null = null;
    for (let i = 0; i < 50 && !code; i++) {
      code = latestResetCode(world);
      if (!code) await page.waitForTimeout(100);
    }
    expect(code).toBeTruthy();
    await page.getByLabel('Verification Code').fill(code!);
    await page.getByLabel('New Password').fill('Reset#Pass2026');
    await page.getByLabel('Confirm Password').fill('Reset#Pass2026');
    await screenshot(page, 'forgot-password');
    await change.click();
    await page.getByText('Your password has been reset. Please sign in.').waitFor();
    await signInToShell(page, world, 'acme', 'merchant.user', 'Reset#Pass2026');
    await context.close();
  });

  it('user_pass_reset preloads the username into the reset form', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', '/?user_pass_reset=agent'));
    await page.getByTestId('reset-password-form').waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe('agent');
    await page.getByRole('button', { name: 'Login Instead' }).click();
    await page.getByTestId('sign-in-form').waitFor();
    await context.close();
  });

  it('forced update: any data code 401 shows the form; same password refused; reload into the portal', async () => {
    const { context, page } = await world.newPage();
    await signIn(page, world, 'acme', 'forcereset');
    await page.getByTestId('forced-update-form').waitFor({ timeout: 30_000 });
    await page.getByLabel('Current Password').fill(DEMO_PASSWORD);
    await page.getByLabel('New Password').fill(DEMO_PASSWORD);
    expect(await page.getByTestId('new_password-error').textContent()).toBe(
      'Current password and new password cannot be the same.',
    );
    await page.getByLabel('New Password').fill('Forced#Update2026');
    await page.getByLabel('Confirm Password').fill('Forced#Update2026');
    await screenshot(page, 'forced-update');
    await page.getByRole('button', { name: 'Update Password' }).click();
    // The reload signs in silently through the refresh cookie.
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-name').textContent()).toBe('Fiona Forcereset');
    await context.close();
  });
});

describe('top bar rules', () => {
  it('read-only user: name, Profile and Sign Out; sign out returns to the sign-in form', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'readonly');
    expect(await page.getByTestId('user-name').textContent()).toBe('Riley Readonly');
    expect(await page.getByTestId('sign-out').count()).toBe(1);
    expect(await page.getByTestId('alerts-banner').count()).toBe(1);
    await screenshot(page, 'readonly-top-bar');
    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-form').waitFor();
    // The refresh cookie is revoked (and cleared): a reload stays signed out, and quietly.
    const start = watchStart(page);
    await page.reload();
    await page.getByTestId('sign-in-form').waitFor();
    await networkQuiet(page);
    expect(start.refreshStatus).toBe(REFRESH_NO_SESSION);
    expect(start.errors).toEqual([]);
    await context.close();
  });

  it('federated user via ?sso_token=: no Profile, no Sign Out', async () => {
    const key = readFileSync(demoSsoKeyFile(world.t.env.DATA_DIR, 'acme'), 'utf8');
    const token = await mintSsoToken(key, { tenant: 'acme', username: 'federated' });
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', `/?sso_token=${encodeURIComponent(token)}`));
    await page.getByTestId('top-bar').waitFor({ timeout: 30_000 });
    expect(page.url()).not.toContain('sso_token');
    expect(await page.getByTestId('user-name').textContent()).toBe('Frankie Federated');
    expect(await page.getByTestId('sign-out').count()).toBe(0);
    expect(await page.getByTestId('profile-link').count()).toBe(0);
    await screenshot(page, 'federated-top-bar');
    await context.close();
  });

  it('a bad single sign-on token shows the exchange failure', async () => {
    const { context, page } = await world.newPage();
    await page.goto(world.url('acme', '/?sso_token=not-a-token'));
    await page.getByTestId('sign-in-error').waitFor();
    expect(await page.getByTestId('sign-in-error').textContent()).toMatch(/^Issue logging in: /);
    await context.close();
  });

  it("impersonation: every call carries the user id; 'Back as' returns to the admin on /users", async () => {
    const acme = demoTenant('acme');
    const target = DEMO_USERS.find((u) => u.username === 'merchant.admin')!;
    const { context, page } = await signedInPage(world, 'acme', 'admin');
    // Only the calls of the reloaded page count: the first page's own calls carry no impersonation.
    await networkQuiet(page);
    let reloaded = false;
    const seen: string[] = [];
    page.on('request', (r) => {
      if (reloaded && r.url().includes('/api/') && !r.url().includes('/auth/'))
        seen.push(r.headers()['x-impersonate-user-id'] ?? '');
    });
    await page.evaluate(
      ([id, name]) => {
        sessionStorage.setItem('portal.selectedUserId', id!);
        sessionStorage.setItem('portal.selectedUserName', name!);
      },
      [String(demoUserId(acme, target)), `${target.fname} ${target.lname}`],
    );
    reloaded = true;
    await page.reload();
    await page.getByTestId('back-as').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-name').textContent()).toBe('Mia Admin');
    expect(await page.getByTestId('back-as').textContent()).toBe('Back as Avery Admin');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h === String(demoUserId(acme, target)))).toBe(true);
    await page.getByTestId('dashboard').waitFor({ timeout: 30_000 });
    await screenshot(page, 'impersonation-top-bar');
    await page.getByTestId('back-as').click();
    await page.waitForURL('**/users');
    await page.getByText('Avery Admin').first().waitFor();
    expect(await page.getByTestId('back-as').count()).toBe(0);
    await context.close();
  });
});

describe('routes', () => {
  it('unknown paths go to /not-found with its texts and three actions; guards send users without the feature there', async () => {
    const { context, page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'merchant.admin', DEMO_PASSWORD, '/no/such/page');
    await page.waitForURL('**/not-found');
    await page.getByTestId('not-found').getByText('Page Not Found').waitFor();
    await page
      .getByText('We were unable to find the content you were looking for. Here are some things you can try:')
      .waitFor();
    for (const name of ['Go Back', 'Go Home'])
      expect(await page.getByRole('button', { name }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toMatch(
      /^mailto:/,
    );
    await screenshot(page, 'not-found');
    await page.getByRole('button', { name: 'Go Home' }).click();
    await page.waitForURL('**/dashboard');
    // A merchant admin has no Features page (cb911 configuration).
    await page.goto(world.url('acme', '/features'));
    await page.waitForURL('**/not-found');
    await context.close();
  });

  // No route is a 'coming soon' placeholder any more (PLACEHOLDER_ROUTES is empty, menu.test.ts):
  // the former example, /reports, renders its screen inside the shell.
  it('a former placeholder route renders its screen inside the shell', async () => {
    const { context, page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'admin', DEMO_PASSWORD, '/reports');
    await page.getByTestId('reports').waitFor();
    expect(await page.getByTestId('coming-soon').count()).toBe(0);
    expect(await page.title()).toMatch(/^Reports - /);
    await context.close();
  });
});
