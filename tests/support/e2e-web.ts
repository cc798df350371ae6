import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_PASSWORD, LIVE_PATH } from '@portal/contracts';
import { startStack, type Stack } from '../../services/runner/src/stack';
import { launchBrowser, tenantUrl } from './browser';
import { callGateway, type GatewayAnswer } from './gateway-client';
import { createTestEnv, type TestEnv } from './test-env';

export type TenantId = 'acme' | 'northbank';

/** The full stack (gateway serving web/dist, four services, real Postgres and Redis) plus Chromium. */
export interface WebWorld {
  t: TestEnv;
  stack: Stack;
  browser: Browser;
  url(tenant: TenantId, path?: string): string;
  /** A fresh browser context (own cookies and storage) on a page. */
  newPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * A copy of config/tenants with changes per tenant (e.g. shorter idle
 * timeouts); pass the directory as TENANT_CONFIG_DIR.
 */
export function tenantConfigCopy(edit: (tenant: string, yaml: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-tenants-'));
  cpSync(join(process.cwd(), 'config', 'tenants'), dir, { recursive: true });
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml'))) {
    const file = join(dir, f);
    writeFileSync(file, edit(f.replace(/\.yaml$/, ''), readFileSync(file, 'utf8')));
  }
  return dir;
}

/**
 * The built web app the browser tests load: web/dist, or WEB_DIST_DIR from the
 * environment (a private build, so that rebuilding one checkout's web/dist
 * never changes the pages under another run's tests).
 */
export function webDistDir(): string {
  const dir = process.env.WEB_DIST_DIR || join(process.cwd(), 'web', 'dist');
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`${dir} has no index.html: run node scripts/build.mjs first`);
  return dir;
}

/** A tenant file with auth limits that the sign-ins of a browser test file stay under. */
export const raisedAuthLimits = (yaml: string) =>
  yaml
    .replace(/auth_ip_per_minute: \d+/, 'auth_ip_per_minute: 2000')
    .replace(/auth_username_per_minute: \d+/, 'auth_username_per_minute: 500');

/** A fresh browser context (own cookies and storage) on a page whose requests networkQuiet follows. */
export async function newTrackedPage(browser: Browser, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport });
  trackRequests(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => console.error('[browser]', e.message));
  return { context, page };
}

export interface WebWorldOptions {
  /**
   * Runs the job worker in process (document compile, transport, ...); off by
   * default, so that a test sees jobs wait in their queue.
   */
  worker?: NonNullable<Parameters<typeof startStack>[1]['worker']>;
}

/**
 * Browser tests sign in many times a minute from 127.0.0.1: the tenants' auth
 * rate limits (30 per IP, 10 per username a minute; every page load's refresh
 * counts) would turn later sign-ins into 429s, so the stack runs on a copy of
 * the tenant config with higher auth limits (and `edit` for more changes).
 */
export async function startWebWorld(
  overrides: Record<string, string> = {},
  edit: (tenant: string, yaml: string) => string = (_t, y) => y,
  options: WebWorldOptions = {},
): Promise<WebWorld> {
  const configDir = tenantConfigCopy((tenant, yaml) => edit(tenant, raisedAuthLimits(yaml)));
  overrides = { TENANT_CONFIG_DIR: configDir, WEB_DIST_DIR: webDistDir(), ...overrides };
  const t = await createTestEnv(overrides);
  const stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    ...(options.worker ? { worker: options.worker } : {}),
  });
  const browser = await launchBrowser();
  return {
    t,
    stack,
    browser,
    url: (tenant, path = '/') => tenantUrl(stack.gatewayUrl, tenant, path),
    newPage: (viewport) => newTrackedPage(browser, viewport),
    close: async () => {
      await browser.close();
      await stack.close();
      await t.close();
    },
  };
}

/** Requests in flight per context, but the live stream (it stays open for as long as the page). */
const inFlight = new WeakMap<BrowserContext, Set<Request>>();

function trackRequests(context: BrowserContext) {
  const open = new Set<Request>();
  inFlight.set(context, open);
  context.on('request', (r) => {
    if (!new URL(r.url()).pathname.startsWith(LIVE_PATH)) open.add(r);
  });
  context.on('requestfinished', (r) => open.delete(r));
  context.on('requestfailed', (r) => open.delete(r));
}

/**
 * Waits until no request but the live stream has been in flight for 500 ms:
 * Playwright's 'networkidle' never comes while the page holds its live stream open.
 */
export async function networkQuiet(page: Page, timeout = 20_000) {
  const open = inFlight.get(page.context());
  if (!open) throw new Error('networkQuiet needs a page of world.newPage() (requests tracked)');
  const deadline = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500) {
    if (Date.now() > deadline) throw new Error(`network not quiet after ${timeout} ms`);
    if (open.size) quietSince = Date.now();
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A test file's world, started in beforeAll and closed in afterAll (the
 * arguments are startWebWorld's). The object returned is filled in by
 * beforeAll: use it inside tests and hooks.
 */
export function useWebWorld(...args: Parameters<typeof startWebWorld>): WebWorld {
  const world = {} as WebWorld;
  beforeAll(async () => {
    Object.assign(world, await startWebWorld(...args));
  });
  afterAll(async () => {
    // Unset when beforeAll failed.
    await (world as Partial<WebWorld>).close?.();
  });
  return world;
}

/** In-app navigation (no reload): the router follows popstate. */
export async function goInApp(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Signs in through the form and waits for the signed-in shell. */
export async function signIn(
  page: Page,
  world: WebWorld,
  tenant: TenantId,
  username: string,
  password = DEMO_PASSWORD,
  path = '/',
) {
  const api: string[] = [];
  const track = (r: Response) => {
    if (r.url().includes('/api/'))
      api.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  };
  page.on('response', track);
  await page.goto(world.url(tenant, path));
  try {
    await page.getByTestId('sign-in-form').waitFor();
  } catch (e) {
    const text = await page.evaluate(() => document.body.innerText).catch(() => '(no page)');
    console.error(
      `sign-in form did not appear at ${page.url()}; page text: ${text.slice(0, 300)}; api: ${api.join(', ')}`,
    );
    throw e;
  } finally {
    page.off('response', track);
  }
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs in through the form (signIn's arguments) and waits for the signed-in shell. */
export async function signInToShell(...args: Parameters<typeof signIn>) {
  await signIn(...args);
  await args[0].getByTestId('top-bar').waitFor({ timeout: 30_000 });
}

/** A fresh browser context whose user is signed in (through the form) on `path`. */
export async function signedInPage(world: WebWorld, tenant: TenantId, username: string, path = '/') {
  const opened = await world.newPage();
  await signInToShell(opened.page, world, tenant, username, DEMO_PASSWORD, path);
  return opened;
}

/** A call to the gateway with a tenant's Host header. */
export function gatewayCall(
  world: WebWorld,
  tenant: TenantId,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<GatewayAnswer> {
  return callGateway(world.stack.gatewayUrl, tenant, init.method ?? 'GET', path, init);
}

/** Signs a user in through the API and answers a caller for that user (to compare the UI with the API). */
export async function apiAs(world: WebWorld, tenant: TenantId, username: string, password = DEMO_PASSWORD) {
  const signin = await gatewayCall(world, tenant, '/api/users/auth/signin', {
    method: 'POST',
    body: { username, password },
  });
  const token = (signin.json as { access_token?: string }).access_token;
  if (!token)
    throw new Error(`sign-in of ${username} failed: ${signin.status} ${JSON.stringify(signin.json)}`);
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const r = await gatewayCall(world, tenant, `/api${path}`, { ...init, token });
    if (r.status >= 400)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json as T;
  };
}

/** The newest forgot-password code mailed to the outbox of this stack (DATA_DIR/outbox/*.json). */
export function latestResetCode(world: WebWorld, to?: string): string | null {
  const dir = join(world.t.env.DATA_DIR, 'outbox');
  if (!existsSync(dir)) return null;
  const mails = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse()
    .map(
      (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string; subject: string; text: string },
    );
  for (const m of mails) {
    if (to && m.to !== to) continue;
    const code = /verification code is (\S+)/i.exec(m.text)?.[1];
    if (code) return code;
  }
  return null;
}

/**
 * Opens a row's menu and picks an item. Open menus survive grid redraws (their state is
 * kept by case id, issue 7), so one open and one click are enough.
 */
export async function openRowMenuItem(page: Page, trigger: string, item: string) {
  await page.getByRole('button', { name: trigger }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/**
 * Clicks until `shown` appears: a grid that redraws its rows (a search or page size that has
 * just applied) can swap the clicked element out between Playwright's hit test and the
 * click, and the click is then lost, as a user's would be. A user clicks again; so does this.
 */
export async function clickUntil(target: Locator, shown: Locator, tries = 3, each = 7_000) {
  for (let i = 1; ; i++) {
    // A click the page answered slowly may already have opened it (and its overlay now covers the target).
    if (i > 1 && (await shown.isVisible())) return;
    try {
      await target.click({ timeout: each });
      return await shown.waitFor({ timeout: each });
    } catch (e) {
      if (i >= tries) throw e;
    }
  }
}
