/// <reference lib="dom" />
import type { Browser, Page, Request } from 'playwright-core';
import { DEMO_PASSWORD, LIVE_PATH } from '@portal/contracts';
import type { TenantId } from './e2e-web';

/**
 * Walks the menu a signed-in user is shown (tests/e2e/menu-routes.test.ts): signs in through the form
 * in a fresh context, opens every collapsed menu section, reads every entry's path and opens each in
 * the app (no reload), then reports what went wrong on the way: API answers 4xx/5xx, error states on
 * the screen, uncaught page errors.
 */
export interface WalkTarget {
  browser: Browser;
  url(tenant: TenantId, path?: string): string;
}

/** When an answer came: before the signed-in shell, or while a route (or the landing page) was open. */
export type Phase = 'sign-in' | 'route';

/** An API answer of 400 or more that is expected, with the reason (shown when the test fails). */
export interface Allowance {
  phase: Phase;
  method: string;
  path: string;
  status: number;
  why: string;
}

export interface ApiFailure {
  phase: Phase;
  /** The route open when the call was answered ('(landing)' right after sign-in). */
  route: string;
  method: string;
  path: string;
  status: number;
  message: string;
}

export interface WalkResult {
  /** The menu's paths, in menu order. */
  paths: string[];
  /** Everything wrong, one line each ('<route>: <what>'). */
  problems: string[];
  /** Every API answer >= 400 (also the allowed ones). */
  failures: ApiFailure[];
  /** Time per route until the network was quiet, ms. */
  timings: Record<string, number>;
}

/** What a walk may do besides opening the routes (tests/e2e/accessibility.test.ts). */
export interface WalkOptions {
  /**
   * Runs on every screen once it is done: the sign-in form (route 'sign-in', before signing in) and each
   * menu route (its path), after the walk's own checks. What it finds goes to the walk's problems.
   */
  onRoute?: (page: Page, route: string) => Promise<string[]>;
}

/** Requests in flight and started so far (the live stream excepted: it stays open as long as the page). */
interface Traffic {
  open: Set<Request>;
  started: number;
}

function trackTraffic(page: Page): Traffic {
  const traffic: Traffic = { open: new Set(), started: 0 };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith(LIVE_PATH)) return;
    traffic.open.add(r);
    traffic.started++;
  });
  page.on('requestfinished', (r) => traffic.open.delete(r));
  page.on('requestfailed', (r) => traffic.open.delete(r));
  return traffic;
}

/**
 * Waits until the screen is done: nothing (but the live stream) in flight for `windowMs`, and then the
 * page has run its pending work (two animation frames and a task: the router's render, the effects
 * that start the next queries) without starting another request. On a starved renderer the quiet
 * window alone could end before the screen even asked for its data.
 */
async function settle(page: Page, traffic: Traffic, what: string, windowMs = 300, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    let quietSince = Date.now();
    while (Date.now() - quietSince < windowMs) {
      if (Date.now() > deadline)
        throw new Error(
          `${what}: network not quiet after ${timeout} ms (open: ${[...traffic.open].map((r) => r.url()).join(', ')})`,
        );
      if (traffic.open.size) quietSince = Date.now();
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = traffic.started;
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
        ),
    );
    if (traffic.started === before && traffic.open.size === 0) return;
  }
}

/**
 * Error toasts vanish after 3 s: a page script records every one shown (Ark's toast root carries
 * data-type), read after each route.
 */
function recordErrorToasts() {
  const w = window as unknown as { __errorToasts: string[] };
  w.__errorToasts = [];
  const seen = new WeakSet<Element>();
  new MutationObserver(() => {
    for (const el of Array.from(document.querySelectorAll('[data-part="root"][data-type="error"]'))) {
      if (seen.has(el)) continue;
      seen.add(el);
      w.__errorToasts.push((el.textContent ?? '').trim());
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-type'] });
}

/** Opens every collapsed menu section and answers the menu's paths, in menu order. */
export async function menuPaths(page: Page): Promise<string[]> {
  const closed = page.locator('[data-testid="sidebar"] button[aria-expanded="false"]');
  for (let i = 0; i < 30 && (await closed.count()) > 0; i++) await closed.first().click();
  const hrefs = await page
    .locator('[data-testid="sidebar"] a[href]')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return [...new Set(hrefs)];
}

/** The error states a screen can show (grep web/src: ErrorFallback, NotFoundRoute, Notice status="error"). */
async function errorStates(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
    for (const el of Array.from(document.querySelectorAll('[data-testid="error-boundary"]')))
      found.push(`error boundary: ${text(el)}`);
    for (const el of Array.from(document.querySelectorAll('[data-testid="not-found"]')))
      found.push(`not-found page: ${text(el)}`);
    for (const el of Array.from(document.querySelectorAll('[data-status="error"]')))
      if (visible(el)) found.push(`error notice: ${text(el)}`);
    if (document.querySelector('[data-testid="sign-in-form"]'))
      found.push('signed out: the sign-in form shows');
    const w = window as unknown as { __errorToasts?: string[] };
    for (const t of w.__errorToasts?.splice(0) ?? []) found.push(`error toast: ${t}`);
    return found;
  });
}

const allowed = (f: ApiFailure, allowances: readonly Allowance[]) =>
  allowances.some(
    (a) => a.phase === f.phase && a.method === f.method && a.path === f.path && a.status === f.status,
  );

/** Signs `username` in on `tenant` in a new context, opens every route its menu offers, closes the context. */
export async function walkMenu(
  target: WalkTarget,
  tenant: TenantId,
  username: string,
  allowances: readonly Allowance[] = [],
  options: WalkOptions = {},
): Promise<WalkResult> {
  const context = await target.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const problems: string[] = [];
  const failures: ApiFailure[] = [];
  const bodies: Promise<void>[] = [];
  const timings: Record<string, number> = {};
  let phase: Phase = 'sign-in';
  let route = '(sign-in)';
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const traffic = trackTraffic(page);
    await page.addInitScript(recordErrorToasts);
    page.on('pageerror', (e) => problems.push(`${route}: uncaught page error: ${e.message}`));
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (!url.pathname.startsWith('/api/') || r.status() < 400) return;
      const failure: ApiFailure = {
        phase,
        route,
        method: r.request().method(),
        path: url.pathname,
        status: r.status(),
        message: '',
      };
      failures.push(failure);
      bodies.push(
        r.text().then(
          (t) => void (failure.message = t.slice(0, 200)),
          () => undefined,
        ),
      );
    });

    // The first load of a cold stack on a busy machine is slow: wait for the form, not for 'load'.
    await page.goto(target.url(tenant, '/'), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.getByTestId('sign-in-form').waitFor({ timeout: 60_000 });
    if (options.onRoute) {
      await settle(page, traffic, `${tenant} ${username} sign-in`);
      for (const p of await options.onRoute(page, 'sign-in')) problems.push(`sign-in: ${p}`);
    }
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByTestId('top-bar').waitFor();
    phase = 'route';
    route = '(landing)';
    await settle(page, traffic, `${tenant} ${username} landing`);

    const paths = await menuPaths(page);
    for (const path of paths) {
      route = path;
      const started = Date.now();
      // In-app navigation, as a menu click does (a reload would refresh the session every time).
      await page.evaluate((p) => {
        window.history.pushState({}, '', p);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await settle(page, traffic, `${tenant} ${username} ${path}`);
      timings[path] = Date.now() - started;
      const at = await page.evaluate(() => window.location.pathname);
      if (at !== path) problems.push(`${path}: the app went to ${at}`);
      for (const state of await errorStates(page)) problems.push(`${path}: ${state}`);
      if (options.onRoute) for (const p of await options.onRoute(page, path)) problems.push(`${path}: ${p}`);
    }
    route = '(after the walk)';
    await Promise.all(bodies);
    for (const f of failures)
      if (!allowed(f, allowances))
        problems.push(`${f.route}: ${f.method} ${f.path} answered ${f.status} ${f.message}`);
    return { paths, problems, failures, timings };
  } finally {
    await context.close();
  }
}

/**
 * Runs at most `max` walks at once (one context each, one browser): the walks mostly wait on the stack,
 * but the machine running them may be small and busy. `inTurn(() => walkMenu(...))`.
 */
export function walkLimiter(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function inTurn<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
