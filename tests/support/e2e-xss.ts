import type { BrowserContext, Dialog, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { makePdf } from './representment-upload';

/**
 * Stored XSS in the browser tests (issue 27 part H): the payloads, a watch on
 * a browser context (dialogs, CSP violation reports, a trap that records any
 * write to `window.__x`) and the check each screen must pass once it shows the
 * stored values. Only tests/e2e/stored-xss.test.ts uses it.
 */
export const IMG = '<img src=x onerror=window.__x=1>';
export const SVG = '<svg onload=window.__x=1>';
export const JS = 'javascript:window.__x=1';

export interface XssWatch {
  dialogs: string[];
  console: string[];
}

/**
 * Watches every page of a context: `window.__x` becomes a recording accessor
 * before any page script runs (an executed payload leaves a hit even if its
 * element is gone again), CSP violations are collected (an inline handler
 * that the policy blocked is still markup that should never have been built),
 * and dialogs are recorded and dismissed.
 */
export async function watchContext(context: BrowserContext): Promise<XssWatch> {
  const watch: XssWatch = { dialogs: [], console: [] };
  await context.addInitScript(() => {
    const w = window as unknown as { __xss: { hits: string[]; csp: string[] } };
    w.__xss = { hits: [], csp: [] };
    let value: unknown;
    Object.defineProperty(window, '__x', {
      configurable: true,
      get: () => value,
      set: (v: unknown) => {
        value = v;
        w.__xss.hits.push(location.href);
      },
    });
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__xss.csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
  const listen = (p: Page) => {
    p.on('dialog', (d: Dialog) => {
      watch.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => undefined);
    });
    p.on('console', (m) => {
      if (/content security policy|refused to/i.test(m.text())) watch.console.push(m.text());
    });
  };
  context.pages().forEach(listen);
  context.on('page', listen);
  return watch;
}

/** What a page holds that a stored payload could have become. */
export interface PageFindings {
  x: unknown;
  hits: string[];
  csp: string[];
  markup: string[];
}

export function findings(page: Page): Promise<PageFindings> {
  return page.evaluate(() => {
    const w = window as unknown as { __x?: unknown; __xss?: { hits: string[]; csp: string[] } };
    const selector = [
      'img[src="x"]',
      '[onerror]',
      '[onload]',
      '[href^="javascript:" i]',
      '[src^="javascript:" i]',
      '[action^="javascript:" i]',
      '[formaction^="javascript:" i]',
    ].join(', ');
    const markup = Array.from(document.querySelectorAll(selector), (e) => e.outerHTML.slice(0, 160));
    return { x: w.__x, hits: w.__xss?.hits ?? [], csp: w.__xss?.csp ?? [], markup };
  });
}

/**
 * The check of a screen that shows stored payloads: each `texts` entry is
 * visible as text inside `scope` (default: the page's main area, since the
 * top bar shows a payload name on every page), and nothing ran, no markup was
 * built from them, no CSP violation was reported and no dialog opened (one
 * diff names all of it).
 */
export async function expectInert(
  page: Page,
  watch: XssWatch,
  screen: string,
  texts: string[] = [],
  scope: Locator = page.locator('main'),
) {
  const missing: string[] = [];
  for (const text of texts) {
    const shown = await scope
      .getByText(text)
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    if (!shown) missing.push(text);
  }
  const found = await findings(page);
  expect({ screen, missing, ...found, dialogs: watch.dialogs, console: watch.console }).toEqual({
    screen,
    missing: [],
    x: undefined,
    hits: [],
    csp: [],
    markup: [],
    dialogs: [],
    console: [],
  });
}

/**
 * A PDF that is also an HTML page: `%PDF-1.4`, then an HTML document with a
 * script on the second line, then a real one-page PDF whose cross-reference
 * offsets are moved by the inserted bytes (so strict readers accept it too).
 */
export async function polyglotPdf(): Promise<Buffer> {
  const pdf = Buffer.from(await makePdf(1)).toString('latin1');
  const header = '%PDF-1.4\n';
  const html = '<html><script>window.__x=1</script><body><h1>polyglot</h1></body></html>\n';
  const rest = pdf.slice(pdf.indexOf('\n') + 1);
  const shift = header.length + html.length - (pdf.length - rest.length);
  const xrefAt = rest.lastIndexOf('\nxref\n');
  if (xrefAt < 0) throw new Error('makePdf wrote no classic xref table');
  const body = rest.slice(0, xrefAt);
  const tail = rest
    .slice(xrefAt)
    .replace(/^(\d{10}) (\d{5}) n/gm, (_, off: string, gen: string) => {
      return `${String(Number(off) + shift).padStart(10, '0')} ${gen} n`;
    })
    .replace(/startxref\n(\d+)/, (_, n: string) => `startxref\n${Number(n) + shift}`);
  return Buffer.from(header + html + body + tail, 'latin1');
}
