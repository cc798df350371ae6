import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { walkLimiter, walkMenu, type WalkOptions } from '../support/e2e-menu-walk';
import { firstCell } from '../support/e2e-case-grid';
import { networkQuiet, signedInPage, useWebWorld, type TenantId } from '../support/e2e-web';

/**
 * Issue 29 parts 5 and 8. Every route the menu offers, for the users whose menus together hold every
 * route, on both tenants and in the partner-branded variant: axe-core finds no serious or critical
 * violation of the WCAG 2.2 A/AA rules, and each screen is saved to
 * .data/screenshots/routes/<tenant>-<user>/<route>.png to be looked at. Then the keyboard: a dialog
 * opened by keyboard keeps Tab inside, closes on Escape and gives focus back to its trigger; a row menu
 * opens with Enter and ArrowDown; the grid moves its focused cell with the arrow keys.
 */
const world = useWebWorld();

/** admin's menu holds nearly every route, merchant.admin's Webhooks, partner.admin's the partner scope. */
const WALKS: { tenant: TenantId; username: string; why: string }[] = [
  { tenant: 'acme', username: 'admin', why: 'staff: nearly every route' },
  { tenant: 'acme', username: 'partner.admin', why: 'partner scope' },
  { tenant: 'acme', username: 'merchant.admin', why: 'merchant scope, Webhooks' },
  { tenant: 'northbank', username: 'admin', why: 'data-grid menu' },
  { tenant: 'northbank', username: 'partner.admin', why: 'partner scope, Login As' },
  { tenant: 'northbank', username: 'merchant.admin', why: 'merchant scope' },
  // DEMO_USERS: partner.user has theme_variant 2 on northbank, the partner-branded look.
  { tenant: 'northbank', username: 'partner.user', why: 'the partner-branded variant' },
];

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * AG Grid rows after the fifth: drawn by the same cell renderers as the first five, and most of axe's
 * time on a grid of 50 rows (8 to 11 s a page on a busy machine). The first five still meet every renderer.
 */
const LATER_GRID_ROWS = `.ag-row[row-index]${[0, 1, 2, 3, 4].map((i) => `:not([row-index="${i}"])`).join('')}`;

/**
 * An empty AG Grid's scroll viewport holds nothing tabbable, so axe reports it (scrollable-region-
 * focusable); but the grid is reached by keyboard through its tab guards, which focus the header cells,
 * and moving along the header scrolls the viewport. Only that element, only that rule.
 */
const knownFalsePositive = (rule: string, target: axe.UnlabelledFrameSelector) =>
  rule === 'scrollable-region-focusable' && target.join(' ').endsWith('.ag-grid-viewport');
const SHOTS = join(process.cwd(), '.data', 'screenshots', 'routes');

/** One axe violation on one route, for the summary by rule. */
interface Found {
  walk: string;
  route: string;
  rule: string;
  impact: string;
  nodes: number;
}
const found: Found[] = [];

/** A route as a file name: '/reports/monitoring' -> 'reports-monitoring'. */
const fileName = (route: string) => route.replace(/^\//, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'root';

/**
 * axe-core in the page: its source is evaluated over the DevTools protocol, which the page's CSP
 * (script-src without 'unsafe-inline') does not govern, so the context needs no bypassCSP. It is injected
 * once per document: the walk navigates in the app, so the document stays.
 */
async function runAxe(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(
    ({ tags, exclude }) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        { exclude: [exclude] },
        {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
          // The only frame is the northbank alerts embed, another site's page: not ours to judge.
          iframes: false,
        },
      ),
    { tags: WCAG_TAGS, exclude: LATER_GRID_ROWS },
  );
  results.violations = results.violations
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !knownFalsePositive(v.id, n.target)) }))
    .filter((v) => v.nodes.length > 0);
  return results;
}

/**
 * Screens whose first view hides most of what they draw: opened further before axe looks. The API
 * documentation folds every tag: one tag and one call are opened (method badges, parameters, responses).
 */
const OPEN_MORE: Record<string, (page: Page) => Promise<void>> = {
  '/resource-api-documentation': async (page) => {
    await page.locator('.swagger-ui .opblock-tag').first().click();
    await page.locator('.swagger-ui .opblock-summary-control').first().click();
    await page.locator('.swagger-ui .opblock-body').first().waitFor();
  },
};

/** The serious and critical violations of axe's results, one line each (the first elements named). */
function seriousViolations(results: axe.AxeResults): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n').slice(1, 2).join('').trim()})`)
        .join('; ');
      return `axe ${v.impact} ${v.id} on ${v.nodes.length} element(s): ${v.help}: ${where}`;
    });
}

/**
 * Colours at rest: the pointer leaves the screen (a hovered button is drawn in its hover colours) and
 * every finite CSS transition and animation has ended. A contrast measured mid-transition (a preset
 * button of the date range, text half way between two colours) failed a walk once.
 */
async function stillColours(page: Page) {
  await page.mouse.move(0, 0);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
}

/** The walk's per-route hook: axe, then the screenshot (after, so that a failing page still has one). */
function checkRoute(walk: string, spent: Record<string, number>): NonNullable<WalkOptions['onRoute']> {
  const dir = join(SHOTS, walk);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return async (page, route) => {
    const started = Date.now();
    // The menu walk scrolls the page to reach the menu's last sections; the sticky top bar would cover
    // the top of the screen (and of its screenshot). Charts animate in: measured colours are the final ones.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(400);
    await stillColours(page);
    await OPEN_MORE[route]?.(page);
    const results = await runAxe(page);
    for (const v of results.violations)
      found.push({ walk, route, rule: v.id, impact: v.impact ?? 'none', nodes: v.nodes.length });
    const problems = seriousViolations(results);
    await page.screenshot({ path: join(dir, `${fileName(route)}.png`), fullPage: true });
    spent[route] = Date.now() - started;
    return problems;
  };
}

/** At most three walks at once, as in menu-routes. */
const inTurn = walkLimiter(3);

async function checkWalk(tenant: TenantId, username: string, expect: ExpectStatic) {
  const walk = `${tenant}-${username}`;
  const spent: Record<string, number> = {};
  const result = await inTurn(() =>
    walkMenu(world, tenant, username, [], { onRoute: checkRoute(walk, spent) }),
  );
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const slowest = Object.entries(spent)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([p, ms]) => `${p} ${ms} ms`);
  console.log(
    `${walk}: ${result.paths.length} routes checked with axe (opening ${sum(result.timings)} ms, ` +
      `axe and screenshot ${sum(spent)} ms, slowest ${slowest.join(', ')}); screenshots in ${join(SHOTS, walk)}`,
  );
  expect(result.paths.length, 'the menu offers routes').toBeGreaterThan(3);
  expect(result.problems).toEqual([]);
}

describe.concurrent('every route: no serious or critical WCAG 2.2 A/AA violation (axe-core)', () => {
  for (const { tenant, username, why } of WALKS)
    it(`${tenant} ${username} (${why})`, ({ expect }) => checkWalk(tenant, username, expect), 600_000);

  // Every violation found, of any impact, by rule: what a run shows beyond its pass or fail.
  afterAll(() => {
    const byRule = new Map<string, { routes: number; nodes: number }>();
    for (const f of found) {
      const key = `${f.rule} (${f.impact})`;
      const r = byRule.get(key) ?? { routes: 0, nodes: 0 };
      r.routes++;
      r.nodes += f.nodes;
      byRule.set(key, r);
    }
    const lines = [...byRule].map(([k, v]) => `${k}: ${v.routes} route(s), ${v.nodes} element(s)`);
    console.log(`axe violations by rule (all impacts): ${lines.join('; ') || 'none'}`);
  });
});

describe('by keyboard', () => {
  /** What has focus: its test id, aria-label or text, and whether it is inside `selector`. */
  const focused = (page: Page, selector?: string) =>
    page.evaluate((sel) => {
      const el = document.activeElement as HTMLElement | null;
      return {
        name:
          el?.getAttribute('data-testid') ??
          el?.getAttribute('aria-label') ??
          (el?.textContent ?? '').trim().slice(0, 40),
        inside: sel ? !!el?.closest(sel) : false,
      };
    }, selector);

  /**
   * The item an open menu highlights (Ark's menus keep focus on the menu and point at the item with
   * aria-activedescendant and data-highlighted): its test id or text.
   */
  const highlighted = (page: Page) =>
    page.evaluate(() => {
      const el = document.querySelector('[role="menu"] [data-highlighted]');
      return el ? (el.getAttribute('data-testid') ?? (el.textContent ?? '').trim()) : null;
    });

  /**
   * Ark's dialog traps focus from the frame after it opens (and records then where focus goes back):
   * a person pressing Tab is never that quick, a test must wait for it.
   */
  const trapped = async (page: Page) => {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))),
        ),
    );
    await expect.poll(async () => (await focused(page, '[role="dialog"]')).inside).toBe(true);
  };

  it('a dialog opened by keyboard keeps Tab inside, closes on Escape and gives focus back', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin', '/chargebacks');
    try {
      await networkQuiet(page);
      const trigger = page.getByTestId('views-menu');
      await trigger.focus();
      // A menu opens with Enter; ArrowDown moves through its items; Enter picks one.
      await page.keyboard.press('Enter');
      const menu = page.getByTestId('views-menu-content');
      await menu.waitFor();
      await expect.poll(async () => (await focused(page, '[role="menu"]')).inside).toBe(true);
      await page.keyboard.press('End');
      await expect.poll(() => highlighted(page)).toMatch(/save-view|manage-views/);
      // 'Save current view…' is the last but one or last item: walk up to it.
      for (let i = 0; i < 3 && (await highlighted(page)) !== 'save-view'; i++)
        await page.keyboard.press('ArrowUp');
      expect(await highlighted(page)).toBe('save-view');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await trapped(page);
      // The open dialog (and what it covers, hidden from assistive technology) passes axe too.
      expect(seriousViolations(await runAxe(page))).toEqual([]);
      // Tab and Shift+Tab go round inside the dialog.
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect((await focused(page, '[role="dialog"]')).inside, `Tab ${i + 1} stays in the dialog`).toBe(
          true,
        );
      }
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Shift+Tab');
        expect((await focused(page, '[role="dialog"]')).inside, `Shift+Tab ${i + 1}`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).name).toBe('views-menu');
    } finally {
      await context.close();
    }
  });

  it('a row menu opens with Enter and ArrowDown, its dialog returns focus; the grid moves by arrow keys', async () => {
    const { context, page } = await signedInPage(world, 'acme', 'admin', '/chargebacks');
    try {
      await networkQuiet(page);
      const firstActions = page.getByRole('button', { name: /^Actions for case / }).first();
      await firstActions.waitFor();
      const label = (await firstActions.getAttribute('aria-label'))!;

      // Enter opens the row menu (focus on the menu, an item highlighted); Escape closes it on its trigger.
      await firstActions.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      await expect.poll(async () => (await focused(page, '[role="menu"]')).inside).toBe(true);
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
      await expect.poll(async () => (await focused(page)).name).toBe(label);

      // ArrowDown opens it too; walk down to 'Add Comment' and pick it with Enter: its dialog opens.
      await page.keyboard.press('ArrowDown');
      await page.getByRole('menu').waitFor();
      await expect.poll(() => highlighted(page)).not.toBeNull();
      for (let i = 0; i < 8 && (await highlighted(page)) !== 'Add Comment'; i++)
        await page.keyboard.press('ArrowDown');
      expect(await highlighted(page)).toBe('Add Comment');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await trapped(page);
      // The open dialog (and what it covers, hidden from assistive technology) passes axe too.
      expect(seriousViolations(await runAxe(page))).toEqual([]);
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        expect((await focused(page, '[role="dialog"]')).inside, `Tab ${i + 1} stays in the dialog`).toBe(
          true,
        );
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).name).toBe(label);

      // The grid: a focused cell moves with the arrow keys (AG Grid's own keyboard navigation).
      // Focused as a click would (a click can land on the pinned columns drawn over it).
      await firstCell(page, 'id').focus();
      const position = () =>
        page.evaluate(() => {
          const el = document.activeElement?.closest('[role="gridcell"]');
          const row = el?.closest('[role="row"]');
          return { col: el?.getAttribute('col-id') ?? null, row: row?.getAttribute('row-index') ?? null };
        });
      const start = await position();
      expect(start.col).not.toBeNull();
      await page.keyboard.press('ArrowDown');
      await expect.poll(position).toEqual({ col: start.col, row: String(Number(start.row) + 1) });
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => (await position()).col).not.toBe(start.col);
      await page.keyboard.press('ArrowUp');
      await expect.poll(async () => (await position()).row).toBe(start.row);
    } finally {
      await context.close();
    }
  });
});
