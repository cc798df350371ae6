import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded browser (PITFALLS: Chromium in tests). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * `scrollbars`: draw scrollbars as a desktop user sees them (Linux or Windows). Playwright's headless
 * default (--hide-scrollbars) leaves them out of screenshots and layout, so that a test cannot tell
 * whether a wide grid shows its horizontal scrollbar.
 */
export async function launchBrowser(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Browser tests need Debian's Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does it)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    ...(options.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
  });
}

/** Screenshots are test artifacts under test-results/screens/. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screens');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Chromium resolves *.localhost to loopback: a tenant's URL on the test gateway's port. */
export function tenantUrl(gatewayUrl: string, tenant: 'acme' | 'northbank', path = '/'): string {
  const port = new URL(gatewayUrl).port;
  return `http://${tenant}.localhost:${port}${path}`;
}
