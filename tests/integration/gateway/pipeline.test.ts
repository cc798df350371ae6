import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { INVALIDATE_CHANNEL } from '@portal/contracts';
import { useGatewayHarness } from '../../support/gateway-harness';
import { claimsFor, profile } from './fakes';

/**
 * The gateway's pipeline (design §4) against real Redis and small upstreams
 * with controlled behaviour. The real services are in full-stack.test.ts.
 */
const ACME = { host: 'acme.localhost' };
const NORTH = { host: 'northbank.localhost' };

const h = useGatewayHarness({
  env: { UPSTREAM_TIMEOUT_MS: '600' },
  separateUpstreams: true,
  profiles: {
    'acme:1000001': profile(1000001, {
      role: 'cb911_admin',
      roles: ['cb911_admin'],
      merchant: { id: 1000001, business_name: 'Root', show_alerts_banner: false },
    }),
    'acme:1000004': profile(1000004, { role: 'partner_admin', roles: ['partner_admin'] }),
    'acme:1000006': profile(1000006),
    'acme:1000007': profile(1000007, {
      role: 'merchant_user',
      roles: ['merchant_user'],
      features: [{ id: 2, alias: 'chargebacks' }],
    }),
    'acme:1000008': profile(1000008, { is_read_only: true }),
    'acme:1000011': profile(1000011, { must_update_password: true }),
    'acme:1000012': profile(1000012, { status: 2 }),
    // Merchant 1000012 has show_cb_auto_accept_btn off in acme's stack config.
    'acme:1000013': profile(1000013, {
      merchant: { id: 1000012, business_name: 'Copper Kettle Coffee', show_alerts_banner: false },
    }),
    'acme:1000002': profile(1000002, { role: 'cb911_admin', roles: ['cb911_admin'] }),
    // A holder of the ERT and case builder features (and the case-builder role): every prefix is open to them.
    'acme:1000014': profile(1000014, {
      features: ['ert', 'case-builder', 'templatelib'].map((alias, i) => ({ id: 100 + i, alias })),
      resources: [{ id: 100, alias: 'case-builder', url: null }],
    }),
    'northbank:2000004': profile(2000004, { role: 'partner_admin', roles: ['partner_admin'] }),
    'northbank:2000006': profile(2000006),
  },
});

describe('tenants and the web app', () => {
  it('resolves the tenant from Host, with acme as the default', async () => {
    const acme = await h.inject({ url: '/api/tenant', headers: ACME });
    expect(acme.json()).toMatchObject({
      id: 'acme',
      site_name: 'Acme Chargeback Portal',
      menu_variant: 'classic',
    });
    const north = await h.inject({ url: '/api/tenant', headers: NORTH });
    expect(north.json()).toMatchObject({
      id: 'northbank',
      menu_variant: 'data-grid',
      dashboard: { pie_chart: 'status' },
      client_kind: 'payment_processor',
    });
    const other = await h.inject({ url: '/api/tenant', headers: { host: 'localhost:8080' } });
    expect(other.json().id).toBe('acme');
    expect(JSON.stringify(north.json())).not.toMatch(/rate_limits|upstream|stack_config/);
  });

  it('serves index.html per tenant with title, favicon, bootstrap and a CSP nonce', async () => {
    const page = await h.inject({ url: '/dashboard', headers: NORTH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const html = page.body;
    expect(html).toContain('<title>Northbank Dispute Center</title>');
    expect(html).toContain('href="/tenant-assets/northbank/favicon.svg"');
    const block = /<script type="application\/json" id="portal-bootstrap">([\s\S]*?)<\/script>/.exec(html);
    expect(JSON.parse(block![1]!)).toMatchObject({ id: 'northbank', site_name: 'Northbank Dispute Center' });
    const csp = String(page.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("frame-ancestors 'none'");
    // Styles need the nonce too (no 'unsafe-inline'); the web app reads it from the csp-nonce meta.
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(csp).not.toContain("'unsafe-inline'");
    expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
    expect(csp).toContain('frame-src https://alerts.northbank.example');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      if (!tag.includes('application/json')) expect(tag).toContain(`nonce="${nonce}"`);
    }
    const again = await h.inject({ url: '/dashboard', headers: NORTH });
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('sends HSTS and upgrade-insecure-requests only behind TLS (trusted proxy)', async () => {
    const page = await h.inject({ url: '/', headers: { ...ACME, 'x-forwarded-proto': 'https' } });
    // TRUST_PROXY is empty: a client's X-Forwarded-Proto is not believed.
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves tenant assets and 404s missing assets instead of HTML', async () => {
    const logo = await h.inject({ url: '/tenant-assets/acme/logo.svg', headers: ACME });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toContain('image/svg+xml');
    // An encoded slash is refused before routing (request-target.ts).
    expect((await h.inject({ url: '/tenant-assets/acme/..%2Facme.yaml', headers: ACME })).statusCode).toBe(
      400,
    );
    expect((await h.inject({ url: '/tenant-assets/acme/acme.yaml', headers: ACME })).statusCode).toBe(404);
    const missing = await h.inject({ url: '/assets/missing-file.js', headers: ACME });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).not.toContain('text/html');
  });
});

describe('authentication', () => {
  it('refuses calls without or with a bad token, and tokens of another tenant', async () => {
    expect((await h.inject({ method: 'GET', url: '/api/cm/cases', headers: ACME })).statusCode).toBe(401);
    const bad = await h.inject({
      url: '/api/cm/cases',
      headers: { ...ACME, authorization: 'Bearer abc.def.ghi' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const otherTenant = await h.inject({
      url: '/api/cm/cases',
      headers: { ...ACME, authorization: `Bearer ${h.token(2000006, 'northbank')}` },
    });
    expect(otherTenant.statusCode).toBe(401);
    const expired = h.signer.token({
      ...claimsFor(1000006, 'acme'),
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    expect(
      (await h.inject({ url: '/api/cm/cases', headers: { ...ACME, authorization: `Bearer ${expired}` } }))
        .statusCode,
    ).toBe(401);
    const wrongIss = h.signer.token(claimsFor(1000006, 'acme', 'someone-else'));
    expect(
      (await h.inject({ url: '/api/cm/cases', headers: { ...ACME, authorization: `Bearer ${wrongIss}` } }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses alg none, HS256 signed with the public key and jku/jwk header tricks', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const claims = b64(claimsFor(1000001, 'acme'));
    const none = `${b64({ alg: 'none', kid: h.signer.kid })}.${claims}.`;
    const pub = JSON.stringify(h.signer.jwks.keys[0]);
    const hsHead = b64({ alg: 'HS256', kid: h.signer.kid });
    const hs = `${hsHead}.${claims}.${createHmac('sha256', pub).update(`${hsHead}.${claims}`).digest('base64url')}`;
    const jku = h.signer.token(claimsFor(1000001, 'acme'), { jku: 'http://evil.example/jwks.json' });
    const jwk = h.signer.token(claimsFor(1000001, 'acme'), { jwk: h.signer.jwks.keys[0] });
    for (const token of [none, hs, jku, jwk]) {
      const r = await h.inject({
        url: '/api/cm/cases',
        headers: { ...ACME, authorization: `Bearer ${token}` },
      });
      expect(r.statusCode).toBe(401);
    }
  });

  it('refuses a locked user', async () => {
    expect((await h.inject({ url: '/api/cm/cases', headers: h.auth(1000012) })).statusCode).toBe(401);
  });
});

describe('proxy and header hygiene', () => {
  it('signs the internal context and drops spoofed identity and forwarding headers', async () => {
    const r = await h.inject({
      url: '/api/cm/cases?limit=5',
      headers: h.auth(1000006, 'acme', {
        'x-portal-context': 'forged.context',
        'x-client-ip': '6.6.6.6',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
        forwarded: 'for=6.6.6.6',
        'x-real-ip': '6.6.6.6',
        'x-request-id': 'client-chosen-id-123',
      }),
    });
    expect(r.statusCode).toBe(200);
    const seen = r.json();
    expect(seen.path).toBe('/cm/cases?limit=5');
    expect(seen.ctx).toMatchObject({
      tenant: 'acme',
      user_id: 1000006,
      actor_id: 1000006,
      kind: 'user',
      roles: ['merchant_admin'],
      merchant_id: 1000011,
    });
    expect(seen.headers['x-client-ip']).toBe('127.0.0.1');
    expect(seen.headers['x-request-id']).toBe('client-chosen-id-123');
    for (const h of [
      'x-forwarded-for',
      'x-forwarded-host',
      'forwarded',
      'x-real-ip',
      'authorization',
      'cookie',
    ])
      expect(seen.headers[h]).toBeUndefined();
    expect(r.headers['x-request-id']).toBe('client-chosen-id-123');
  });

  it('cannot be made to drop its own headers through Connection', async () => {
    const r = await h.inject({
      url: '/api/cm/cases',
      headers: h.auth(1000006, 'acme', { connection: 'x-portal-context, x-client-ip' }),
    });
    expect(r.json().ctx).toMatchObject({ user_id: 1000006 });
    expect(r.json().headers['x-client-ip']).toBe('127.0.0.1');
  });

  it('routes each prefix to its service with /api stripped', async () => {
    for (const [path, expected] of [
      ['/api/ert/erts', '/ert/erts'],
      ['/api/docs/templates', '/docs/templates'],
      ['/api/builder/products', '/builder/products'],
      ['/api/users/users', '/users/users'],
    ]) {
      const r = await h.inject({ url: path!, headers: h.auth(1000014) });
      expect(r.statusCode, path).toBe(200);
      expect(r.json().path).toBe(expected);
    }
  });

  it('refuses path escapes sent raw over HTTP', async () => {
    const base = await h.gateway.listen({ port: 0, host: '127.0.0.1' });
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${base}/`, { path, headers: h.auth(1000006) }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    const before = h.user.seen.length;
    for (const path of [
      '/api/cm/../users/users',
      '/api/cm/%2e%2e/users/users',
      '/api/cm/..%2Fusers',
      '/api/cm//cases',
      '/api/cm/cases%2F1',
      '/api/cm/.\\./users',
    ]) {
      expect([400, 404], path).toContain(await raw(path));
    }
    expect(h.user.seen.length).toBe(before);
  });

  it('survives a client that disconnects while the upstream is answering', async () => {
    const base = h.gateway.server.listening
      ? `http://127.0.0.1:${(h.gateway.server.address() as { port: number }).port}`
      : await h.gateway.listen({ port: 0, host: '127.0.0.1' });
    // The upstream answers after the client left (the path that crashed with undici 6 bodies).
    h.cases.delayMs = 400;
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}/api/cm/cases/slow`, { headers: h.auth(1000006) });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    await new Promise((r) => setTimeout(r, 400));
    h.cases.delayMs = 2000;
    const after = await h.inject({ url: '/api/cm/cases', headers: h.auth(1000006) });
    expect(after.statusCode).toBe(200);
  });

  it('answers 413 for an oversized body before the upstream reads it', async () => {
    const before = h.cases.seen.length;
    const r = await h.inject({
      method: 'PATCH',
      url: '/api/cm/cases/1/edit',
      headers: { ...h.auth(1000006), 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(r.statusCode).toBe(413);
    expect(h.cases.seen.length).toBe(before);
  });

  it('rewrites absolute upstream redirects and passes upstream 503s through once (no retries)', async () => {
    // The echo upstream answers by the last segment: GET /api/cm/cases/:id is open to any signed-in user.
    const redirect = await h.inject({ url: '/api/cm/cases/redirect', headers: h.auth(1000006) });
    expect(redirect.headers.location).toBe('/api/cm/elsewhere');
    const before = h.cases.calls.get('/cm/cases/fail503') ?? 0;
    const busy = await h.inject({ url: '/api/cm/cases/fail503', headers: h.auth(1000006) });
    expect(busy.statusCode).toBe(503);
    expect(h.cases.calls.get('/cm/cases/fail503')).toBe(before + 1);
  });

  it('answers 504 JSON when an upstream is slower than the timeout', async () => {
    const started = Date.now();
    const r = await h.inject({ url: '/api/cm/cases/slow', headers: h.auth(1000006) });
    expect(r.statusCode).toBe(504);
    expect(r.json()).toEqual({ statusCode: 504, error: 'Gateway Timeout', message: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('policy', () => {
  it('forces a password update with 403 {code: 401} except on whoami and the password calls', async () => {
    const r = await h.inject({ url: '/api/cm/cases', headers: h.auth(1000011) });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      statusCode: 403,
      code: 401,
      data: { code: 401 },
      message: 'Password update required.',
    });
    expect(
      (await h.inject({ method: 'POST', url: '/api/users/whoami', headers: h.auth(1000011) })).statusCode,
    ).toBe(200);
    expect(
      (
        await h.inject({
          method: 'POST',
          url: '/api/users/auth/password',
          headers: h.auth(1000011),
          payload: {},
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await h.inject({
          method: 'POST',
          url: '/api/users/pass/updated',
          headers: h.auth(1000011),
          payload: {},
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses writes of a read-only user except the allow-list', async () => {
    const write = await h.inject({
      method: 'PATCH',
      url: '/api/cm/cases/1/edit',
      headers: h.auth(1000008),
      payload: { verdict_id: 1 },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe('Your account is read-only.');
    expect((await h.inject({ url: '/api/cm/cases', headers: h.auth(1000008) })).statusCode).toBe(200);
    expect(
      (
        await h.inject({
          method: 'POST',
          url: '/api/users/events/tracking',
          headers: h.auth(1000008),
          payload: { key: 'x' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('allows bulk auto-accept only where the stack config shows the Bulk Close button', async () => {
    const autoaccept = (id: number) =>
      h.inject({ method: 'POST', url: '/api/cm/cases/process/autoaccept', headers: h.auth(id), payload: {} });
    expect((await autoaccept(1000006)).statusCode).toBe(200);
    const before = h.cases.calls.get('/cm/cases/process/autoaccept');
    expect((await autoaccept(1000013)).statusCode).toBe(403);
    expect(h.cases.calls.get('/cm/cases/process/autoaccept')).toBe(before);
  });

  it('denies writes not in the policy table and checks roles and features', async () => {
    expect(
      (
        await h.inject({
          method: 'POST',
          url: '/api/cm/not-in-the-table',
          headers: h.auth(1000001),
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
    // merchant_user lacks the users feature and role
    expect(
      (await h.inject({ method: 'POST', url: '/api/users/users', headers: h.auth(1000007), payload: {} }))
        .statusCode,
    ).toBe(403);
    expect(
      (await h.inject({ method: 'POST', url: '/api/users/users', headers: h.auth(1000006), payload: {} }))
        .statusCode,
    ).toBe(200);
    // HAS_REMEDY is on for acme
    expect(
      (await h.inject({ method: 'POST', url: '/api/cm/cases/5/ce', headers: h.auth(1000006), payload: {} }))
        .statusCode,
    ).toBe(200);
  });
});

describe('impersonation', () => {
  const as = (actor: number, target: number | string, tenant = 'acme') =>
    h.auth(actor, tenant, { 'x-impersonate-user-id': String(target) });

  it('lets cb911_admin act as an active user and audits every call', async () => {
    const audits = () =>
      h.user.audits.filter((a) => a.body.actor_id === 1000001 && a.body.user_id === 1000006);
    const before = audits().length;
    const r = await h.inject({ url: '/api/cm/cases', headers: as(1000001, 1000006) });
    expect(r.statusCode).toBe(200);
    expect(r.json().ctx).toMatchObject({ user_id: 1000006, actor_id: 1000001, roles: ['merchant_admin'] });
    const who = await h.inject({ method: 'POST', url: '/api/users/whoami', headers: as(1000001, 1000006) });
    expect(who.json()).toMatchObject({
      id: 1000006,
      impersonated_by: { id: 1000001, fname: 'First1000001' },
    });
    // Stored before each call was answered (onSend): no flush, no waiting.
    expect(audits()).toHaveLength(before + 2);
    expect(h.gateway.gw.audit.pending).toBe(0);
    expect(audits()[before]!.body).toMatchObject({
      actor_id: 1000001,
      user_id: 1000006,
      method: 'GET',
      route: '/api/cm/cases',
      target_ids: {},
      status: 200,
    });
    // Sent in batches per tenant, signed as a system call.
    expect(audits()[before]!.ctx).toMatchObject({ tenant: 'acme', kind: 'system' });
  });

  it('refuses each rule: role, payment-processor partner, self, inactive, cb911_admin target, other tenant', async () => {
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000006, 1000007) })).statusCode).toBe(403); // merchant_admin
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000004, 1000006) })).statusCode).toBe(403); // partner_admin on a standard tenant
    expect(
      (await h.inject({ url: '/api/cm/cases', headers: as(2000004, 2000006, 'northbank') })).statusCode,
    ).toBe(200); // payment processor
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000001, 1000001) })).statusCode).toBe(403); // self
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000001, 1000012) })).statusCode).toBe(403); // locked
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000001, 1000002) })).statusCode).toBe(403); // another cb911_admin
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000001, 2000006) })).statusCode).toBe(403); // other tenant
    expect((await h.inject({ url: '/api/cm/cases', headers: as(1000001, 'abc') })).statusCode).toBe(403);
  });

  it('applies the effective user read-only flag while impersonating', async () => {
    const r = await h.inject({
      method: 'PATCH',
      url: '/api/cm/cases/1/edit',
      headers: as(1000001, 1000008),
      payload: {},
    });
    expect(r.statusCode).toBe(403);
  });
});

describe('caches', () => {
  it('answers whoami from the cache, MISS then HIT, and drops it on invalidation', async () => {
    h.user.profiles.set('acme:1000020', profile(1000020));
    const first = await h.inject({ method: 'POST', url: '/api/users/whoami', headers: h.auth(1000020) });
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await h.inject({ method: 'POST', url: '/api/users/whoami', headers: h.auth(1000020) });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(await h.t.deps.cache.get('gw:profile:acme:1000020')).toContain('"id":1000020');
    h.user.profiles.set('acme:1000020', profile(1000020, { fname: 'Renamed' }));
    await h.t.deps.cache.publish(
      INVALIDATE_CHANNEL,
      JSON.stringify({ tenant: 'acme', kind: 'user', id: 1000020 }),
    );
    await expect
      .poll(
        async () =>
          (await h.inject({ method: 'POST', url: '/api/users/whoami', headers: h.auth(1000020) })).json()
            .fname,
      )
      .toBe('Renamed');
  });

  it('single-flights concurrent profile misses', async () => {
    h.user.profiles.set('acme:1000021', profile(1000021));
    const before = h.user.whoamiCalls;
    await Promise.all(
      Array.from({ length: 10 }, () => h.inject({ url: '/api/cm/cases', headers: h.auth(1000021) })),
    );
    expect(h.user.whoamiCalls - before).toBe(1);
  });

  it('caches lookups per tenant and drops them on a lookup invalidation', async () => {
    const url = '/api/cm/gen/countries?limit=999&start=0';
    const a = await h.inject({ url, headers: h.auth(1000006) });
    expect(a.headers['x-cache']).toBe('MISS');
    expect(a.json().data).toHaveLength(1);
    const b = await h.inject({ url: '/api/cm/gen/countries?start=0&limit=999', headers: h.auth(1000007) });
    expect(b.headers['x-cache']).toBe('HIT');
    expect(h.cases.calls.get('/cm/gen/countries?limit=999&start=0')).toBe(1);
    await h.t.deps.cache.publish(
      INVALIDATE_CHANNEL,
      JSON.stringify({ tenant: 'acme', kind: 'lookup', id: 'countries' }),
    );
    await expect
      .poll(async () => (await h.inject({ url, headers: h.auth(1000006) })).headers['x-cache'])
      .toBe('MISS');
  });

  it('builds the stack config from tenant defaults and merchant/user overrides, cached per user', async () => {
    h.user.profiles.set(
      'acme:1000030',
      profile(1000030, {
        merchant: { id: 1000012, business_name: 'Copper Kettle Coffee', show_alerts_banner: false },
      }),
    );
    const r = await h.inject({ url: '/api/config/cfg/stack_config_be', headers: h.auth(1000030) });
    expect(r.headers['x-cache']).toBe('MISS');
    expect(r.json().attr).toEqual({
      max_representment_page_count: 20,
      max_representment_upload_size: 10485760,
      show_cb_auto_accept_btn: false,
      show_cb_case_filter_btn: true,
      show_cb_primary_cases_expiring_x_days: true,
      edit_disabled_status_groups: [],
      edit_verdict_only: false,
    });
    expect(
      (await h.inject({ url: '/api/config/cfg/stack_config_be', headers: h.auth(1000030) })).headers[
        'x-cache'
      ],
    ).toBe('HIT');
    const mu = await h.inject({ url: '/api/config/cfg/stack_config_be', headers: h.auth(1000007) });
    expect(mu.json().attr.show_cb_case_filter_btn).toBe(false);
    const ma = await h.inject({ url: '/api/config/cfg/stack_config_be', headers: h.auth(1000006) });
    expect(ma.json().attr.edit_verdict_only).toBe(true);
    const nbFull = await h.inject({
      url: '/api/config/cfg/stack_config_be',
      headers: h.auth(2000006, 'northbank'),
    });
    expect(nbFull.json().attr).toMatchObject({ edit_disabled_status_groups: [3], edit_verdict_only: false });
    const nb = await h.inject({ url: '/api/config/cfg/slim', headers: h.auth(2000006, 'northbank') });
    expect(nb.json().attr).toEqual({
      max_representment_page_count: 30,
      max_representment_upload_size: 5242880,
    });
    const filters = await h.inject({
      url: '/api/config/cfg/cases_advanced_filters',
      headers: h.auth(1000006),
    });
    const aliases = filters.json().attr.filters.map((f: { alias: string }) => f.alias);
    expect(aliases).toContain('reason_code_id');
    expect(aliases).not.toContain('assigned_user_id'); // staff-only field
    const staff = await h.inject({ url: '/api/config/cfg/cases_advanced_filters', headers: h.auth(1000001) });
    expect(staff.json().attr.filters.map((f: { alias: string }) => f.alias)).toContain('assigned_user_id');
  });
});

describe('rate limits and metrics', () => {
  it('limits the auth calls per IP with 429 and Retry-After', async () => {
    let last;
    for (let i = 0; i < 25; i++) {
      // Sign-in (refresh is limited per session since issue 11.2: tests/integration/user/sessions.test.ts).
      last = await h.inject({
        method: 'POST',
        url: '/api/users/auth/signin',
        headers: { ...NORTH, 'content-type': 'application/json' },
        payload: { username: `per.ip.${i}`, password: 'x' },
      });
      if (last.statusCode === 429) break;
    }
    expect(last!.statusCode).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  });

  it('limits sign-in attempts per username and address, never the username from everywhere', async () => {
    const attempt = (username: string, remoteAddress: string) =>
      h.inject({
        method: 'POST',
        url: '/api/users/auth/signin',
        headers: { ...ACME, 'content-type': 'application/json' },
        payload: { username, password: 'x' },
        remoteAddress,
      });
    let last;
    for (let i = 0; i < 12; i++) {
      last = await attempt('Victim', '10.0.0.1');
      if (last.statusCode === 429) break;
    }
    expect(last!.statusCode).toBe(429);
    // The same username from another address, and another username from the first, pass on.
    expect((await attempt('victim', '10.0.0.2')).statusCode).toBe(200);
    const other = await attempt('someone.else', '10.0.0.1');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({
      path: '/users/auth/signin',
      body: { username: 'someone.else' },
      ctx: { kind: 'public', tenant: 'acme' },
    });
  });

  it('counts requests, cache results and upstream errors', async () => {
    const text = await h.gateway.gw.metrics.registry.metrics();
    expect(text).toMatch(/gateway_requests_total\{route="GET \/api\/cm\/cases\/:id"/);
    expect(text).toMatch(/gateway_cache_requests_total\{cache="profile",result="HIT"\}/);
    expect(text).toMatch(/gateway_upstream_errors_total\{upstream="case",status="504"\}/);
    expect(text).toMatch(/gateway_request_duration_seconds_bucket/);
  });
});
