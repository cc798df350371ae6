import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { networkQuiet, signInToShell, useWebWorld } from '../support/e2e-web';

/**
 * The pages under the strict CSP (style-src without 'unsafe-inline'): the
 * sign-in page, the dashboard (ApexCharts, AG Grid) and the case lists (AG
 * Grid) render styled, and Chromium reports no CSP violation. Violations are
 * collected both as `securitypolicyviolation` events and console messages.
 */
const world = useWebWorld();

interface Watched {
  context: BrowserContext;
  page: Page;
  violations(): Promise<string[]>;
}

async function watchedPage(): Promise<Watched> {
  const { context, page } = await world.newPage();
  const console: string[] = [];
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
  // Every page of the context (the print window too).
  const listen = (p: Page) =>
    p.on('console', (m) => {
      if (/content security policy|refused to/i.test(m.text())) console.push(m.text());
    });
  listen(page);
  context.on('page', listen);
  return {
    context,
    page,
    violations: async () => {
      const events = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp ?? []);
      return [...events, ...console];
    },
  };
}

/** Evidence that emotion, AG Grid and ApexCharts styles applied (not just that nothing was reported). */
async function styleFacts(page: Page) {
  return page.evaluate(() => {
    const styles = [...document.querySelectorAll('style')];
    const grid = document.querySelector('.ag-root-wrapper');
    const chart = document.querySelector('.apexcharts-canvas');
    return {
      styleTags: styles.length,
      // After CSP applies, Chromium hides the nonce attribute; the property keeps it.
      withoutNonce: styles.filter((s) => !s.nonce).map((s) => s.outerHTML.slice(0, 80)),
      emotion: styles.some((s) => s.dataset.emotion !== undefined),
      bodyMargin: getComputedStyle(document.body).margin,
      gridBorder: grid ? getComputedStyle(grid).borderTopStyle : null,
      chartPosition: chart ? getComputedStyle(chart).position : null,
    };
  });
}

describe('strict CSP in the browser', () => {
  it('sends style-src without unsafe-inline on index.html', async () => {
    const { page } = await watchedPage();
    const response = await page.goto(world.url('acme', '/'));
    const csp = (await response!.headerValue('content-security-policy')) ?? '';
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `));
    expect(directive('style-src')).toMatch(/^style-src 'self' 'nonce-[A-Za-z0-9+/=]+'$/);
    expect(directive('style-src-elem') ?? '').not.toContain("'unsafe-inline'");
    expect(directive('script-src')).not.toContain("'unsafe-inline'");
    await page.close();
  });

  it('sign-in page: styled by emotion, no CSP violation', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(world.url('acme', '/'));
    await page.getByTestId('sign-in-form').waitFor();
    await networkQuiet(page);
    const facts = await styleFacts(page);
    expect(facts.emotion).toBe(true);
    expect(facts.withoutNonce).toEqual([]);
    // Chakra's global reset took effect (the browser default is 8px).
    expect(facts.bodyMargin).toBe('0px');
    await screenshot(page, 'csp-sign-in');
    expect(await violations()).toEqual([]);

    // The watcher sees what the policy blocks: a <style> without the nonce and parsed style attributes.
    await page.evaluate(() => {
      const s = document.createElement('style');
      s.textContent = 'body { background: red; }';
      document.head.append(s);
      document.body.insertAdjacentHTML('beforeend', '<div id="csp-probe" style="color: red">x</div>');
    });
    await expect
      .poll(async () => (await violations()).filter((v) => v.startsWith('style-src')).join('\n'))
      .toMatch(/style-src-elem[\s\S]*style-src-attr|style-src-attr[\s\S]*style-src-elem/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
      'rgb(255, 0, 0)',
    );
  });

  it('dashboard (ApexCharts, AG Grid) and case list (AG Grid): styled, no CSP violation', async () => {
    const { page, violations } = await watchedPage();
    await signInToShell(page, world, 'acme', 'admin');
    await page.getByTestId('dashboard').waitFor();
    await page
      .locator('[data-testid="mids-top5-grid"] .ag-row[row-index="0"] [col-id="mid"]')
      .first()
      .waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="chart-by-date"] .apexcharts-canvas').waitFor({ timeout: 30_000 });
    // Hover the area chart: its tooltip is built with innerHTML carrying style attributes.
    const chart = page.locator('[data-testid="chart-by-date"] .apexcharts-canvas');
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(2_000); // chart animations (TOOLCHAIN)
    let facts = await styleFacts(page);
    expect(facts.withoutNonce).toEqual([]);
    expect(facts.gridBorder).toBe('solid');
    expect(facts.chartPosition).toBe('relative');
    await screenshot(page, 'csp-dashboard');

    await page.goto(world.url('acme', '/chargebacks'));
    await page.getByTestId('case-list-chargebacks').waitFor();
    await page
      .getByTestId('case-grid')
      .locator('.ag-row[row-index="0"] [col-id="id"]')
      .first()
      .waitFor({ timeout: 30_000 });
    facts = await styleFacts(page);
    expect(facts.withoutNonce).toEqual([]);
    expect(facts.gridBorder).toBe('solid');
    await screenshot(page, 'csp-chargebacks');

    // Grid tools: the PDF (jsPDF, loaded on first use) and the print window (about:blank
    // written by the app, under the opener's policy).
    const download = page.waitForEvent('download');
    await page.getByTestId('tools-menu').click();
    await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      (async () => {
        await page.getByTestId('tools-menu').click();
        await page.getByRole('menuitem', { name: 'Print', exact: true }).click();
      })(),
    ]);
    await popup.locator('table th').first().waitFor();
    expect(
      await popup
        .locator('table th')
        .first()
        .evaluate((th) => getComputedStyle(th).borderTopStyle),
    ).toBe('solid');
    await popup.close();
    expect(await violations()).toEqual([]);
  });

  it('northbank (data-grid menu, status pie chart): no CSP violation', async () => {
    const { page, violations } = await watchedPage();
    await signInToShell(page, world, 'northbank', 'admin');
    await page.getByTestId('dashboard').waitFor();
    await page.locator('.apexcharts-canvas').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2_000);
    await screenshot(page, 'csp-dashboard-northbank');
    expect(await violations()).toEqual([]);
  });
});
