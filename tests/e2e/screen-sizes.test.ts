/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { caseGrid } from '../support/e2e-case-grid';
import {
  goInApp,
  networkQuiet,
  signInToShell,
  useWebWorld,
  type TenantId,
  type WebWorld,
} from '../support/e2e-web';

/**
 * Issue 29.6, any screen size. On a phone (390×844) the sign-in form, the dashboard with its menu drawer,
 * a case's details and history, the upload modal and the alerts grid are usable; at 1280×800 the main
 * routes show nothing overlapping or cut. Checked by geometry in the page (see layoutProblems), with a
 * screenshot of each screen under .data/screenshots/{phone,1280}/ to look at.
 */
const world = useWebWorld();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = join(process.cwd(), '.data', 'screenshots');

async function shot(page: Page, size: 'phone' | '1280', name: string, fullPage = true) {
  const dir = join(SHOTS, size);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/**
 * What is wrong with the layout on screen, in words (empty when nothing is):
 * - the page scrolls sideways (document wider than the viewport);
 * - an element sticks out of the viewport without a scrolling or clipping box of its own around it
 *   (a grid scrolls itself: what is inside it may be wider);
 * - inside `scopes` (the top bar, the page header, a dialog): a box wider than the viewport, two
 *   controls on top of each other, a title or a button whose text is cut.
 */
async function layoutProblems(page: Page, scopes: string[] = []): Promise<string[]> {
  return page.evaluate((scopeSelectors) => {
    const W = document.documentElement.clientWidth;
    const problems: string[] = [];
    const name = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid="${id}"` : ''}>${text ? ` '${text}'` : ''}`;
    };
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'contents';
    };
    const clips = (el: Element) => getComputedStyle(el).overflowX !== 'visible';

    if (document.documentElement.scrollWidth > W + 1)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${W} px`);

    const outside = new Set<Element>();
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right <= W + 1 && r.left >= -1) continue;
      let a = el.parentElement;
      while (a && a !== document.body && !clips(a)) a = a.parentElement;
      // Inside a box that scrolls or clips: that box is checked on its own.
      if (a && a !== document.body) continue;
      outside.add(el);
      if (el.parentElement && outside.has(el.parentElement)) continue;
      problems.push(`${name(el)} sticks out: ${Math.round(r.left)}..${Math.round(r.right)} px of ${W}`);
    }

    for (const sel of scopeSelectors)
      for (const scope of Array.from(document.querySelectorAll(sel))) {
        if (!shown(scope)) continue;
        const sr = scope.getBoundingClientRect();
        if (sr.width > W + 1) problems.push(`${sel} is ${Math.round(sr.width)} px wide in ${W} px`);
        for (const el of Array.from(scope.querySelectorAll('*'))) {
          if (!shown(el) || el.closest('.ag-root-wrapper')) continue;
          const r = el.getBoundingClientRect();
          if (r.width > W + 1) problems.push(`${name(el)} in ${sel} is ${Math.round(r.width)} px wide`);
        }
        // Cut text: a title or a button whose content is wider than its box.
        for (const el of Array.from(scope.querySelectorAll('h1, h2, button, a[role="button"]'))) {
          if (!shown(el) || el.closest('.ag-root-wrapper')) continue;
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
            problems.push(`${name(el)} in ${sel} is cut (${el.scrollWidth} px of text in ${el.clientWidth})`);
          const r = el.getBoundingClientRect();
          if (r.right > sr.right + 1 || r.left < sr.left - 1)
            problems.push(`${name(el)} in ${sel} sticks out of it`);
        }
        // Overlaps: the controls and titles of the scope, two by two (nested ones excepted).
        const parts = Array.from(
          scope.querySelectorAll('h1, h2, button, a, input, select, [role="combobox"], img'),
        ).filter((el) => shown(el) && !el.closest('.ag-root-wrapper'));
        for (let i = 0; i < parts.length; i++)
          for (let j = i + 1; j < parts.length; j++) {
            const [a, b] = [parts[i]!, parts[j]!];
            if (a.contains(b) || b.contains(a)) continue;
            const ra = a.getBoundingClientRect();
            const rb = b.getBoundingClientRect();
            const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
            const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
            if (w > 2 && h > 2) problems.push(`${name(a)} and ${name(b)} overlap in ${sel}`);
          }
      }
    return [...new Set(problems)];
  }, scopes);
}

/** The box of an open dialog: inside the viewport sideways, its top on screen, never wider than the screen. */
async function dialogFits(page: Page, dialog: Locator) {
  const box = (await dialog.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box.x, 'dialog left edge').toBeGreaterThanOrEqual(-1);
  expect(box.x + box.width, 'dialog right edge').toBeLessThanOrEqual(width + 1);
  expect(box.y, 'dialog top edge').toBeGreaterThanOrEqual(-1);
  // A dialog taller than the phone scrolls; its first screenful is on screen.
  expect(box.y, 'dialog top edge').toBeLessThan(height / 2);
}

/**
 * AG Grid renders the columns in view only: scrolls a grid's body sideways, a step at a time, until
 * `target` is there (on a phone most columns are out of view: the grid scrolls itself).
 */
async function revealInGrid(grid: Locator, target: Locator, failure = 'not reachable in the grid') {
  const body = grid.locator('.ag-body-horizontal-scroll-viewport').first();
  // In view and on top (not under the pinned columns): what a tap there would hit.
  const onTop = () =>
    target
      .first()
      .evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && el.contains(hit);
      })
      .catch(() => false);
  for (let x = 0; x < 6000; x += 100) {
    if (await onTop()) return;
    await body.evaluate((el, left) => (el.scrollLeft = left), x);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Scrolled to the end and still under the pinned columns (or not drawn at all).
  expect(await onTop(), failure).toBe(true);
}

const SHELL = ['[data-testid="top-bar"]', '[data-testid="page-header"]'];
const DIALOG = ['[role="dialog"]'];

async function signedIn(w: WebWorld, viewport: typeof PHONE, tenant: TenantId, user: string, path: string) {
  const opened = await w.newPage(viewport);
  await signInToShell(opened.page, w, tenant, user, undefined, path);
  return opened;
}

describe('a phone (390×844)', () => {
  it('sign-in', async () => {
    const { context, page } = await world.newPage(PHONE);
    try {
      await page.goto(world.url('acme', '/'));
      await page.getByTestId('sign-in-form').waitFor();
      await networkQuiet(page);
      await shot(page, 'phone', 'sign-in');
      expect(await layoutProblems(page, ['[data-testid="sign-in-form"]'])).toEqual([]);
      const form = (await page.getByTestId('sign-in-form').boundingBox())!;
      expect(form.width).toBeGreaterThan(PHONE.width * 0.7);
    } finally {
      await context.close();
    }
  });

  it('dashboard, and the menu as a drawer', async () => {
    const { context, page } = await signedIn(world, PHONE, 'acme', 'manager', '/dashboard');
    try {
      await page.getByTestId('dashboard').waitFor();
      await networkQuiet(page);
      // The sidebar is folded away behind the menu button.
      expect(await page.getByTestId('sidebar').count()).toBe(0);
      await shot(page, 'phone', 'dashboard');
      expect(await layoutProblems(page, SHELL)).toEqual([]);

      // The top bar's account actions are one menu on a phone.
      await page.getByRole('button', { name: 'Account menu' }).click();
      const account = page.getByTestId('account-menu-content');
      await account.getByRole('menuitem', { name: 'Sign Out' }).waitFor();
      const box = (await account.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 1);
      await shot(page, 'phone', 'account-menu', false);
      await page.keyboard.press('Escape');
      await account.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('dialog');
      await drawer.getByTestId('sidebar').waitFor();
      await page.waitForTimeout(400); // the drawer slides in
      await dialogFits(page, drawer);
      await shot(page, 'phone', 'menu', false);
      expect(await layoutProblems(page, DIALOG)).toEqual([]);
      // Choosing an entry closes the drawer.
      await drawer.getByRole('button', { name: 'Chargebacks' }).click();
      await drawer.getByTestId('menu-chargebacks').click();
      await drawer.waitFor({ state: 'detached' });
      await page.getByTestId('case-list-chargebacks').waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });

  it("a case's details and its history", async () => {
    const { context, page } = await signedIn(world, PHONE, 'acme', 'manager', '/chargebacks');
    try {
      await page.getByTestId('case-list-chargebacks').waitFor();
      await networkQuiet(page);
      await shot(page, 'phone', 'case-list');
      // The CB ID column may be out of view on a phone: the row says which case it is.
      const first = caseGrid(page).locator('.ag-row[row-index="0"]').first();
      await first.waitFor({ timeout: 20_000 });
      const id = Number(await first.getAttribute('row-id'));
      expect(id).toBeGreaterThan(0);
      expect(await layoutProblems(page, SHELL)).toEqual([]);

      // By keyboard: whether a tap reaches the grid's pinned controls on a phone is the grid's own matter.
      await page.getByRole('button', { name: `Expand case ${id}` }).focus();
      await page.keyboard.press('Enter');
      const detail = page.getByTestId(`case-detail-${id}`);
      await detail.waitFor();
      await networkQuiet(page);
      await detail.scrollIntoViewIfNeeded();
      await shot(page, 'phone', 'case-details');
      expect(await layoutProblems(page, SHELL)).toEqual([]);
      // The details fit the phone's width: the grid's own box, not the page, is what scrolls.
      const box = (await detail.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 1);

      // Case Menu -> Case History (the row's actions may be scrolled into view by the grid).
      const menu = page.getByTestId(`row-actions-${id}`).getByRole('button', { name: 'Case Menu' });
      await menu.scrollIntoViewIfNeeded();
      await menu.click();
      await page.getByTestId(`case-menu-${id}`).getByRole('menuitem', { name: 'Case History' }).click();
      const history = page.getByTestId('history-dialog');
      await history.locator('[data-testid="history-grid"] tbody tr').first().waitFor();
      await page.waitForTimeout(400);
      await dialogFits(page, history);
      await shot(page, 'phone', 'case-history', false);
      expect(await layoutProblems(page, DIALOG)).toEqual([]);
      await history.getByRole('button', { name: 'Close History' }).click();
      await history.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  /** Case Management's New tab on `page`, with the first row's upload button (Document column) in view. */
  async function uploadButton(page: Page) {
    await page.getByTestId('case-list-case-management').waitFor();
    await page.getByTestId('tab-new_cases').click();
    await caseGrid(page).locator('.ag-row').first().waitFor({ timeout: 20_000 });
    await networkQuiet(page);
    const upload = caseGrid(page).getByTestId('doc-upload').first();
    await upload.scrollIntoViewIfNeeded();
    return upload;
  }

  it('the upload modal fits the screen', async () => {
    // Opened where the grid leaves room for the Document column, then seen on the phone.
    const { context, page } = await signedIn(
      world,
      { width: 1440, height: 900 },
      'acme',
      'manager',
      '/case-management',
    );
    try {
      const upload = await uploadButton(page);
      await revealInGrid(caseGrid(page), upload);
      await upload.click();
      const modal = page.getByTestId('upload-representment-modal');
      await modal.waitFor();
      await modal.getByTestId('upload-templates').or(modal.getByTestId('upload-no-templates')).waitFor();
      await page.setViewportSize(PHONE);
      await networkQuiet(page);
      await page.waitForTimeout(400);
      await dialogFits(page, modal);
      await shot(page, 'phone', 'upload-modal', false);
      expect(await layoutProblems(page, DIALOG)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the upload button of a case can be reached', async () => {
    const { context, page } = await signedIn(world, PHONE, 'acme', 'manager', '/case-management');
    try {
      const upload = await uploadButton(page);
      await revealInGrid(caseGrid(page), upload, 'the Document column is not reachable on a phone');
      await upload.click();
      await page.getByTestId('upload-representment-modal').waitFor();
    } finally {
      await shot(page, 'phone', 'upload-reach');
      await context.close();
    }
  });

  it('the alerts grid', async () => {
    const { context, page } = await signedIn(world, PHONE, 'acme', 'merchant.admin', '/alerts');
    try {
      const grid = page.getByTestId('alerts-grid');
      await grid.waitFor();
      await grid.locator('.ag-row').first().waitFor({ timeout: 20_000 });
      await networkQuiet(page);
      await shot(page, 'phone', 'alerts-grid');
      expect(await layoutProblems(page, SHELL)).toEqual([]);
      // The grid scrolls sideways inside its own box, which fits the phone.
      const box = (await grid.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 1);
      const scroll = await grid
        .locator('.ag-body-horizontal-scroll-viewport')
        .evaluate((el) => ({ content: el.scrollWidth, box: el.clientWidth }));
      expect(scroll.content).toBeGreaterThan(scroll.box);
    } finally {
      await context.close();
    }
  });
});

/** The main routes at 1280×800, each with the user whose menu offers it. */
const DESKTOP_ROUTES: Record<string, string[]> = {
  admin: [
    '/dashboard',
    '/chargebacks',
    '/invalid-chargebacks',
    '/case-management',
    '/case-qc-review',
    '/case-updater',
    '/reports',
    '/mtd',
    '/mid-health',
    '/resultant-kpi',
    '/reconciliation-report',
    '/reports/alerts',
    '/reports/monitoring',
    '/ert',
    '/users',
    '/settings',
    '/merchant-hierarchy',
    '/merchant-settings',
    '/template-library',
    '/onboarding',
    '/review',
    '/audit',
    '/features',
    '/help',
    // The next QC case (the address then names it): its top bar has a title too.
    '/case-qc-review/view-case',
    // Last: it folds the sidebar away.
    '/resource-api-documentation',
  ],
  'merchant.admin': ['/alerts', '/webhooks'],
};

describe('1280×800', () => {
  for (const [user, paths] of Object.entries(DESKTOP_ROUTES))
    it(`the main routes of ${user}`, async () => {
      const { context, page } = await signedIn(world, DESKTOP, 'acme', user, '/dashboard');
      const found: Record<string, string[]> = {};
      try {
        await page.getByTestId('dashboard').waitFor();
        for (const path of paths) {
          // The page header drawn by this route, not the one of the route before.
          if (new URL(page.url()).pathname !== path)
            await page.evaluate(() =>
              document
                .querySelectorAll('[data-testid="page-header"]')
                .forEach((h) => h.setAttribute('data-left', '')),
            );
          await goInApp(page, path);
          await page
            .locator('[data-testid="page-header"]:not([data-left])')
            .first()
            .waitFor({ timeout: 20_000 });
          await networkQuiet(page);
          await page.waitForTimeout(300); // charts and grids settle their sizes
          expect(new URL(page.url()).pathname, `${user} opens ${path}`).toMatch(
            new RegExp(`^${path}(/\\d+)?$`),
          );
          await shot(page, '1280', path.slice(1).replace(/\//g, '-'));
          const problems = await layoutProblems(page, SHELL);
          // One page frame: one h1 (the page header's), the route's title in the top bar, and one menu
          // entry highlighted (the most specific: Monitoring, not also Reports).
          const frame = await page.evaluate(() => ({
            // (Swagger UI draws the API documents with headings of its own.)
            h1: Array.from(document.querySelectorAll('main h1')).filter((h) => !h.closest('.swagger-ui'))
              .length,
            title: document.querySelector('[data-testid="top-bar-title"]')?.textContent ?? '',
            sidebar: !!document.querySelector('[data-testid="sidebar"]'),
            current: Array.from(
              document.querySelectorAll('[data-testid="sidebar"] [aria-current="page"]'),
            ).map((a) => a.textContent),
          }));
          if (frame.h1 !== 1) problems.push(`${frame.h1} h1 on the page`);
          if (!frame.title) problems.push('the top bar has no title');
          // (API Documentation folds the sidebar away: no entry to highlight then.)
          if (frame.current.length > 1 || (frame.sidebar && frame.current.length !== 1))
            problems.push(`menu entries highlighted: ${frame.current.join(', ') || 'none'}`);
          if (problems.length) found[path] = problems;
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
    }, 300_000);
});
