import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '@portal/runner';
import { resolveDocsLinkSecret, signFileLink } from '../../../services/docs/src/files/signed-links';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 20 item 10 (hardening) through the real gateway and services:
 * - index.html: a per-response nonce for styles as for scripts, no 'unsafe-inline';
 * - tenant logos and favicons: their own locked-down CSP and nosniff, and only on
 *   their tenant's host (every asset URL shape);
 * - document downloads: attachment with a safe filename (RFC 6266/5987), a
 *   sandboxing CSP and nosniff, passed through by the gateway.
 */
let t: TestEnv;
let stack: Stack;

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
});

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with a Host header (Node cannot resolve *.localhost); raw bytes back. */
function get(host: string, path: string): Promise<Raw> {
  const url = new URL(stack.gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const directives = (csp: unknown) =>
  new Map(
    String(csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values] as const;
      }),
  );

describe('index.html CSP', () => {
  it('styles need the per-response nonce: no unsafe-inline for style elements or scripts', async () => {
    const pages = await Promise.all([get('acme.localhost', '/'), get('acme.localhost', '/dashboard')]);
    const nonces = new Set<string>();
    for (const page of pages) {
      expect(page.status).toBe(200);
      const csp = directives(page.headers['content-security-policy']);
      const scriptNonce = csp.get('script-src')!.find((v) => v.startsWith("'nonce-"))!;
      expect(scriptNonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}==?'$/);
      expect(csp.get('style-src')).toEqual(["'self'", scriptNonce]);
      // style-src-elem falls back to style-src; when set it must not open inline style elements either.
      expect(csp.get('style-src-elem') ?? []).not.toContain("'unsafe-inline'");
      expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
      expect(csp.get('object-src')).toEqual(["'none'"]);
      const nonce = scriptNonce.slice("'nonce-".length, -1);
      nonces.add(nonce);
      // The web app reads the style nonce from the meta element.
      const html = page.body.toString('utf8');
      expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      // Every script and style tag but the bootstrap data block (JSON, never executed).
      for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? [])
        if (!tag.includes('application/json')) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(2);
  });
});

describe('tenant assets', () => {
  const OWN = [
    ['acme.localhost', '/tenant-assets/acme/logo.svg'],
    ['acme.localhost', '/tenant-assets/acme/favicon.svg'],
    ['acme.localhost', '/tenant-assets/acme/partner-logo.svg'],
    ['localhost', '/tenant-assets/acme/logo.svg'], // localhost: acme is the default tenant
    ['northbank.localhost', '/tenant-assets/northbank/logo.svg'],
    ['northbank.localhost', '/tenant-assets/northbank/favicon.svg'],
    ['northbank.localhost', '/tenant-assets/northbank/partner-logo.svg'],
    ['northbank.localhost', '/tenant-assets/northbank/partner-favicon.svg'],
  ] as const;

  it('are served with a locked-down CSP (an SVG opened directly runs no script) and nosniff', async () => {
    for (const [host, path] of OWN) {
      const r = await get(host, path);
      expect(r.status, `${host}${path}`).toBe(200);
      expect(r.headers['content-type']).toBe('image/svg+xml');
      expect(r.body.toString('utf8')).toContain('<svg');
      const csp = directives(r.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('style-src')).toEqual(["'unsafe-inline'"]);
      expect(csp.has('sandbox')).toBe(true);
      expect(csp.get('sandbox')).toEqual([]); // no allow-scripts or other relaxations
      expect(csp.has('script-src')).toBe(false);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it("another tenant's assets are a 404 on this tenant's host, for every URL shape", async () => {
    const foreign = [
      ['acme.localhost', '/tenant-assets/northbank/logo.svg'],
      ['acme.localhost', '/tenant-assets/northbank/favicon.svg'],
      ['acme.localhost', '/tenant-assets/northbank/partner-logo.svg'],
      ['acme.localhost', '/tenant-assets/northbank/partner-favicon.svg'],
      ['localhost', '/tenant-assets/northbank/logo.svg'],
      ['northbank.localhost', '/tenant-assets/acme/logo.svg'],
      ['northbank.localhost', '/tenant-assets/acme/favicon.svg'],
      ['northbank.localhost', '/tenant-assets/acme/partner-logo.svg'],
      // Case, encoding and query variants of the same foreign file.
      ['acme.localhost', '/tenant-assets/NORTHBANK/logo.svg'],
      ['acme.localhost', '/tenant-assets/%6eorthbank/logo.svg'],
      ['acme.localhost', '/tenant-assets/northbank/logo.svg?tenant=acme'],
      ['acme.localhost', '/tenant-assets/acme/../northbank/logo.svg'],
      ['acme.localhost', '/tenant-assets/acme/..%2Fnorthbank%2Flogo.svg'],
      ['acme.localhost', '/tenant-assets//northbank/logo.svg'],
      // An unknown host falls to the default tenant (acme): northbank's files are not its.
      ['unknown.example', '/tenant-assets/northbank/logo.svg'],
    ] as const;
    for (const [host, path] of foreign) {
      const r = await get(host, path);
      expect([400, 404], `${host}${path} -> ${r.status}`).toContain(r.status);
      expect(String(r.headers['content-type'])).not.toContain('image/svg');
      expect(r.body.toString('utf8')).not.toContain('<svg');
    }
  });

  it('the bootstrap names only its own tenant assets', async () => {
    for (const tenant of ['acme', 'northbank']) {
      const boot = JSON.parse((await get(`${tenant}.localhost`, '/api/tenant')).body.toString('utf8'));
      const urls = [
        boot.look.logo_url,
        boot.look.favicon_url,
        boot.variant.look.logo_url,
        boot.variant.look.favicon_url,
      ];
      for (const url of urls) {
        expect(url).toMatch(new RegExp(`^/tenant-assets/${tenant}/[\\w.-]+$`));
        expect((await get(`${tenant}.localhost`, url)).status).toBe(200);
      }
    }
  });
});

describe('document downloads through the gateway', () => {
  async function docRow(offset = 0) {
    const { rows } = await t.db.query<{ id: string; file_key: string; filename: string }>(
      `select id, file_key, filename from docs.representments
       where tenant_id = 'acme' and not is_archived order by id limit 1 offset $1`,
      [offset],
    );
    return rows[0]!;
  }

  it('are attachments with a safe filename, a sandboxing CSP and nosniff', async () => {
    const d = await docRow();
    const { link } = signFileLink(resolveDocsLinkSecret(t.env), 'acme', d.file_key);
    const r = await get('acme.localhost', link);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="${d.filename}"`);
    const csp = directives(r.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('sandbox')).toEqual([]);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('a non-ASCII or hostile filename gets an ASCII fallback and an RFC 5987 filename*', async () => {
    const d = await docRow(1);
    const hostile = 'Représentment "Q3"\r\nX-Injected: 1; 50%/(a)*.pdf';
    await t.db.query(`update docs.representments set filename = $1 where id = $2`, [hostile, d.id]);
    const { link } = signFileLink(resolveDocsLinkSecret(t.env), 'acme', d.file_key);
    const r = await get('acme.localhost', link);
    expect(r.status).toBe(200);
    expect(r.headers['x-injected']).toBeUndefined();
    const disposition = String(r.headers['content-disposition']);
    expect(disposition).toBe(
      `attachment; filename="Repr_sentment _Q3_X-Injected: 1; 50__(a)*.pdf"; ` +
        `filename*=UTF-8''Repr%C3%A9sentment%20%22Q3%22X-Injected%3A%201%3B%2050%25%2F%28a%29%2A.pdf`,
    );
    // The header is one line of visible ASCII.
    expect(disposition).toMatch(/^[\x20-\x7e]+$/);
  });
});
