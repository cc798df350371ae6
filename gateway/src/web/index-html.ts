import { existsSync, readFileSync, statSync } from 'node:fs';
import { BOOTSTRAP_ELEMENT_ID } from '@portal/contracts';
import { tenantBootstrap } from '../tenants/bootstrap';
import type { Tenant } from '../tenants/load';

const FALLBACK_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Chargeback Portal</title>
  </head>
  <body>
    <div id="root"></div>
    <noscript>The web app is not built yet: run node scripts/build.mjs.</noscript>
  </body>
</html>
`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a script data block: `<` escaped so no `</script>` or `<!--` can end it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const NONCE = '\u0000NONCE\u0000';
/** `<meta property="csp-nonce" nonce="…">`: where the web app reads the page's style nonce. */
const CSP_NONCE_META = 'csp-nonce';

/**
 * index.html per tenant: its title, favicon and bootstrap JSON, with a nonce
 * on every script and style tag and in the csp-nonce meta (for the style
 * elements the app injects). Rendered once per tenant version and web build
 * into parts around the nonce; each response only joins them.
 */
export class IndexPages {
  private source: { mtimeMs: number; html: string } | undefined;
  private readonly rendered = new Map<string, { key: string; parts: string[] }>();
  private lastStat = 0;

  constructor(private readonly indexFile: string) {}

  /** The built index.html; re-read when the web app is rebuilt (checked at most once a second). */
  private template(): { mtimeMs: number; html: string } {
    const now = Date.now();
    if (this.source && now - this.lastStat < 1000) return this.source;
    this.lastStat = now;
    const mtimeMs = existsSync(this.indexFile) ? statSync(this.indexFile).mtimeMs : 0;
    if (!this.source || this.source.mtimeMs !== mtimeMs) {
      this.source = { mtimeMs, html: mtimeMs ? readFileSync(this.indexFile, 'utf8') : FALLBACK_INDEX };
    }
    return this.source;
  }

  render(tenant: Tenant, nonce: string): string {
    const source = this.template();
    const key = `${tenant.version}:${source.mtimeMs}`;
    let cached = this.rendered.get(tenant.config.id);
    if (!cached || cached.key !== key) {
      cached = { key, parts: this.build(tenant, source.html).split(NONCE) };
      this.rendered.set(tenant.config.id, cached);
    }
    return cached.parts.join(nonce);
  }

  private build(tenant: Tenant, html: string): string {
    const bootstrap = tenantBootstrap(tenant);
    const title = `<title>${escapeHtml(bootstrap.site_name)}</title>`;
    const favicon = `<link rel="icon" href="${escapeHtml(bootstrap.look.favicon_url)}" />`;
    const data = `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${scriptJson(bootstrap)}</script>`;
    // The style nonce for the libraries that inject <style> elements (emotion, AG Grid, ApexCharts).
    // In the nonce attribute, not in content: Chromium hides a nonce attribute from the DOM (CSS
    // attribute selectors cannot read it out); scripts read it with `meta.nonce`.
    const nonceMeta = `<meta property="${CSP_NONCE_META}" nonce="${NONCE}" />`;
    let out = html.replace(/<link\s+rel="(?:shortcut )?icon"[^>]*>\s*/gi, '');
    out = /<title>[\s\S]*?<\/title>/i.test(out)
      ? out.replace(/<title>[\s\S]*?<\/title>/i, title)
      : out.replace(/<\/head>/i, `${title}</head>`);
    // Every script tag of the build gets the nonce (a module script with src passes 'self' anyway).
    out = out.replace(/<script\b(?![^>]*\bnonce=)/gi, `<script nonce="${NONCE}"`);
    out = out.replace(/<style\b(?![^>]*\bnonce=)/gi, `<style nonce="${NONCE}"`);
    out = out.replace(/<meta\s+property="csp-nonce"[^>]*>\s*/gi, '');
    return out.replace(/<\/head>/i, `    ${nonceMeta}\n    ${favicon}\n    ${data}\n  </head>`);
  }
}
