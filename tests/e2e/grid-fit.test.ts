/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { launchBrowser } from '../support/browser';
import { goInApp, networkQuiet, newTrackedPage, signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * Issue 29.3 'Grids that fit': at 1440×900 every grid's header text is readable (no 'F…',
 * 'Trans …', 'Curre…'); a grid wider than its box shows its horizontal scrollbar; the users grid
 * has one line per row with a row menu instead of five wrapping buttons. Screenshots go to
 * .data/screenshots/grids/<route>.png to be looked at.
 */
const world = useWebWorld();
const SHOTS = join(process.cwd(), '.data', 'screenshots', 'grids');

/** The grid routes of acme's admin (web/src/app/routes/catalogue.ts). */
const ROUTES = [
  '/dashboard',
  '/chargebacks',
  '/invalid-chargebacks',
  '/case-management',
  '/review',
  '/case-qc-review',
  '/alerts',
  '/pre-chargebacks',
  '/users',
  '/users-new',
  '/reports',
  '/reports/alerts',
  '/reports/monitoring',
  '/mid-health',
  '/reconciliation-report',
  '/ert',
  '/onboarding',
  '/case-updater',
  '/audit',
  '/template-library',
  '/template-library-new',
  '/merchant-settings',
  '/settings/profile',
];

interface GridReport {
  truncated: string[];
  /** Grids wider than their box, and whether their horizontal scrollbar shows. */
  wide: { visible: boolean; detail: string }[];
  tables: string[];
  pageOverflow: boolean;
  /** AG Grids and tables shown: a route that shows neither checks nothing. */
  grids: number;
  tableCount: number;
}

/** Header texts cut by an ellipsis, and the horizontal scroll of every grid on the page. */
function measure(): GridReport {
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const truncated: string[] = [];
  const wide: GridReport['wide'] = [];
  const roots = [...document.querySelectorAll('.ag-root-wrapper')].filter(shown);
  for (const root of roots) {
    for (const text of root.querySelectorAll<HTMLElement>('.ag-header-cell-text')) {
      if (!shown(text)) continue;
      if (text.scrollWidth > text.clientWidth + 1)
        truncated.push(`'${text.textContent}' (${text.scrollWidth} > ${text.clientWidth})`);
    }
    // The horizontal scroll's own viewport is as wide as the columns' box; its content as wide as the columns.
    const hScroll = root.querySelector<HTMLElement>('.ag-body-horizontal-scroll');
    const hViewport = root.querySelector<HTMLElement>('.ag-body-horizontal-scroll-viewport');
    if (hViewport && hViewport.scrollWidth > hViewport.clientWidth + 1) {
      const style = hScroll ? getComputedStyle(hScroll) : null;
      const visible =
        !!hScroll &&
        hScroll.offsetHeight > 0 &&
        !hScroll.classList.contains('ag-hidden') &&
        !hScroll.classList.contains('ag-scrollbar-invisible') &&
        style!.visibility !== 'hidden' &&
        Number(style!.opacity) > 0;
      wide.push({
        visible,
        detail: `columns ${hViewport.scrollWidth} px in ${hViewport.clientWidth} px, scrollbar ${hScroll?.offsetHeight ?? 0} px high`,
      });
    }
  }
  const tables: string[] = [];
  const tableCount = [...document.querySelectorAll('table')].filter(shown).length;
  for (const th of document.querySelectorAll<HTMLElement>('table th')) {
    if (!shown(th)) continue;
    if (th.scrollWidth > th.clientWidth + 1) tables.push(`table header '${th.textContent}' overflows`);
  }
  return {
    truncated,
    wide,
    tables,
    pageOverflow: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    grids: roots.length,
    tableCount,
  };
}

async function openGridRoute(page: Page, path: string) {
  await goInApp(page, path);
  await networkQuiet(page);
  // A grid's header, or a table's, once the route's lazy chunks have come; then a grid's rows.
  await page
    .locator('.ag-header-cell-text:visible, table th:visible')
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  await page
    .locator('.ag-overlay-loading-wrapper')
    .first()
    .waitFor({ state: 'hidden', timeout: 15_000 })
    .catch(() => undefined);
  await networkQuiet(page);
  // AG Grid sizes its columns after a frame.
  await page.waitForTimeout(300);
}

const slug = (path: string) => path.replace(/^\//, '').replace(/\//g, '-');

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Scrollbars drawn as on a desktop: Playwright's headless default hides them all.
  browser = await launchBrowser({ scrollbars: true });
  ({ context, page } = await newTrackedPage(browser, { width: 1440, height: 900 }));
  await signInToShell(page, world, 'acme', 'admin', DEMO_PASSWORD, '/dashboard');
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('grids that fit at 1440×900 (acme admin)', () => {
  it.each(ROUTES)('%s: header texts are readable and a wide grid scrolls visibly', async (path) => {
    await openGridRoute(page, path);
    const r = await page.evaluate(measure);
    await page.screenshot({ path: join(SHOTS, `${slug(path)}.png`), fullPage: true });
    console.info(path, JSON.stringify(r));
    expect(r.grids + r.tableCount, 'a grid or a table shows').toBeGreaterThan(0);
    const problems: string[] = [...r.truncated.map((t) => `header ${t}`)];
    problems.push(...r.tables);
    for (const w of r.wide) if (!w.visible) problems.push(`no visible horizontal scroll (${w.detail})`);
    if (r.pageOverflow) problems.push('the page scrolls sideways');
    expect(problems).toEqual([]);
  });
});

describe('a sorted column (acme admin)', () => {
  it('keeps its header readable beside the sort arrow', async () => {
    await openGridRoute(page, '/alerts');
    for (const header of ['Currency', 'Trans Amt']) {
      await page.locator('.ag-header-cell', { hasText: header }).locator('.ag-header-cell-label').click();
      await page
        .locator('.ag-header-cell', { hasText: header })
        .locator('.ag-sort-indicator-icon:visible')
        .first()
        .waitFor();
      await networkQuiet(page);
      expect((await page.evaluate(measure)).truncated).toEqual([]);
    }
    await page.screenshot({ path: join(SHOTS, 'alerts-sorted.png') });
  });
});

/** Rows of the users grid higher than one line of text, or without their row menu. */
function userRowProblems(): string[] {
  const problems: string[] = [];
  const classic = [...document.querySelectorAll<HTMLElement>('[data-testid="user-row"]')];
  for (const row of classic) {
    const username = row.dataset.username ?? '?';
    if (!row.querySelector(`button[aria-label="Actions for ${username}"]`))
      problems.push(`${username}: no row menu`);
    const cell = row.querySelector('td')!;
    const style = getComputedStyle(cell);
    const line = parseFloat(style.lineHeight);
    const content = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    if (content >= 2 * line) problems.push(`${username}: ${content}px high (a line is ${line}px)`);
  }
  for (const row of document.querySelectorAll<HTMLElement>(
    '[data-testid="users-grid"] .ag-center-cols-container .ag-row',
  )) {
    const box = row.getBoundingClientRect();
    const trigger = row.querySelector<HTMLElement>('button[aria-label^="Actions for "]');
    if (!trigger) {
      problems.push(`grid row ${row.getAttribute('row-index')}: no row menu`);
      continue;
    }
    const t = trigger.getBoundingClientRect();
    if (t.top < box.top || t.bottom > box.bottom)
      problems.push(`${trigger.getAttribute('aria-label')}: the menu does not fit its row`);
    for (const cell of row.querySelectorAll<HTMLElement>('.ag-cell'))
      if (cell.scrollHeight > cell.clientHeight + 1)
        problems.push(`${trigger.getAttribute('aria-label')}: a cell's content is higher than its row`);
  }
  return problems;
}

describe('the users grid (acme admin)', () => {
  it.each(['/users', '/users-new'])('%s: every row is one line high, with its row menu', async (path) => {
    await openGridRoute(page, path);
    const selector = path === '/users' ? '[data-testid="user-row"]' : '[data-testid="users-grid"] .ag-row';
    await page.locator(selector).first().waitFor();
    expect(await page.locator(selector).count()).toBeGreaterThan(1);
    expect(await page.evaluate(userRowProblems)).toEqual([]);
    // The menu holds the spec's actions (spec 3 §2 Users).
    await page.getByRole('button', { name: 'Actions for merchant.user', exact: true }).click();
    const menu = page.locator('[data-testid="user-menu"][data-username="merchant.user"]');
    const items = menu.getByRole('menuitem');
    await items.first().waitFor();
    // Opened (its fade-in done) before the screenshot.
    await expect.poll(() => menu.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    expect(await items.allTextContents()).toEqual([
      'Edit',
      'Site Permissions',
      'Temporary Password',
      'MID Permissions',
      'Login As',
    ]);
    await page.screenshot({ path: join(SHOTS, `${slug(path)}-menu.png`) });
    await page.keyboard.press('Escape');
  });
});
