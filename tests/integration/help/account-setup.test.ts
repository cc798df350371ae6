import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSetupLinks, TenantBootstrap } from '@portal/contracts';
import { loadTenants } from '../../../gateway/src/tenants/load';
import { startFullStack, type FullStack } from '../../support/full-stack';

/**
 * Issue 19, what was left of Help: the Account Setup modal's call (spec 3 §2,
 * §9: GET /users/account-setup/links through the gateway, links by role,
 * features and page roles of the signed-in user) and the help topics' videos
 * (tenant config `help_topics[].video`, served from the tenant's assets).
 */
let h: FullStack;
beforeAll(async () => {
  h = await startFullStack();
});
afterAll(async () => h?.close());

async function links(username: string, tenant = 'acme') {
  const token = await h.signIn(username, tenant);
  const r = await h.call('GET', '/users/account-setup/links', { token, host: `${tenant}.localhost` });
  expect(r.status, r.body.slice(0, 200)).toBe(200);
  return (r.json() as AccountSetupLinks).data;
}

describe('account setup links', () => {
  it('gives a merchant admin (a case-builder holder in the demo) every step, with the spec routes', async () => {
    const data = await links('merchant.admin');
    expect(data.map((l) => [l.key, l.url])).toEqual([
      ['accountsetup', '/accountsetup'],
      ['mids', '/mids'],
      ['products', '/products'],
      ['templates', '/Templates'],
    ]);
    expect(data.every((l) => l.label && l.description)).toBe(true);
  });

  it('leaves MIDs out for a user who may not manage them; read-only users see the links', async () => {
    expect((await links('merchant.user')).map((l) => l.key)).toEqual(['accountsetup', 'templates']);
    expect((await links('readonly')).map((l) => l.key)).toEqual(['accountsetup', 'mids', 'templates']);
    expect((await links('admin')).map((l) => l.key)).toEqual(['accountsetup', 'mids', 'templates']);
  });

  it('offers Products to holders of the case-builder role only', async () => {
    expect((await links('partner.admin')).map((l) => l.key)).not.toContain('products');
    await h.t.db.query(
      `insert into users.user_resources (user_id, resource_id, is_allowed)
       select u.id, r.id, true from users.users u, users.resources r
        where u.tenant = 'acme' and u.username = 'partner.admin' and r.alias = 'case-builder'`,
    );
    expect((await links('partner.admin')).map((l) => l.key)).toEqual([
      'accountsetup',
      'mids',
      'products',
      'templates',
    ]);
    // The same username in the other tenant is another user: no grant there.
    expect((await links('partner.admin', 'northbank')).map((l) => l.key)).not.toContain('products');
  });

  it('is for signed-in users of the tenant only', async () => {
    expect((await h.call('GET', '/users/account-setup/links')).status).toBe(401);
    const acme = await h.signIn('merchant.admin');
    const other = await h.call('GET', '/users/account-setup/links', {
      token: acme,
      host: 'northbank.localhost',
    });
    expect(other.status).toBe(401);
  });
});

describe('help topic videos', () => {
  it("are named in the tenant bootstrap and served from the tenant's own assets only", async () => {
    const boot = (await h.call('GET', '/tenant')).json() as TenantBootstrap;
    const videos = boot.help_topics.flatMap((t) => (t.video_url ? [t.video_url] : []));
    expect(videos).toHaveLength(7);
    const asset = (host: string, url: string) =>
      h.stack.gateway.inject({ method: 'GET', url, headers: { host } });
    for (const url of videos) {
      expect(url).toMatch(/^\/tenant-assets\/acme\/help-[a-z-]+\.webm$/);
      const r = await asset('acme.localhost', url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toBe('video/webm');
      expect(r.rawPayload.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // the EBML (WebM) magic
      expect(r.rawPayload.length).toBeLessThan(200_000);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      // Not on another tenant's host; undeclared files are not served either.
      expect((await asset('northbank.localhost', url)).statusCode).toBe(404);
    }
    expect((await asset('acme.localhost', '/tenant-assets/acme/acme.yaml')).statusCode).toBe(404);
    const northbank = (
      await h.call('GET', '/tenant', { host: 'northbank.localhost' })
    ).json() as TenantBootstrap;
    expect(northbank.help_topics).toEqual([]);
  });

  it("the page's CSP lets media come from its own origin only", async () => {
    const page = await h.stack.gateway.inject({
      method: 'GET',
      url: '/help',
      headers: { host: 'acme.localhost' },
    });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/media-src/);
  });

  it('a configured video file that does not exist stops the configuration with the field named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-help-'));
    try {
      cpSync(join(process.cwd(), 'config', 'tenants'), dir, { recursive: true });
      const file = join(dir, 'acme.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('help-alerts.webm', 'missing.webm'));
      expect(() => loadTenants(dir)).toThrow(
        /help_topics\[\d+\]\.video: file .*missing\.webm does not exist/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
