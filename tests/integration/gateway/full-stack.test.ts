import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  demoTenant,
  demoUserId,
  INTERNAL_CONTEXT_HEADER,
} from '@portal/contracts';
import { signContext } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The gateway in front of the real services (user service as identity
 * provider, case service), on real Postgres and Redis: every demo user signs
 * in, then meets the policy table through one representative call per route
 * group; impersonation rules; audit rows; cache invalidation by the user
 * service; an upstream stopped.
 */
/** The demo users of the policy matrix (forcereset signs in too, for the forced-update test). */
const USERS = [
  'admin',
  'manager',
  'agent',
  'partner.admin',
  'partner.user',
  'merchant.admin',
  'merchant.user',
  'readonly',
];

let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const id = (tenant: string, username: string) =>
  demoUserId(
    demoTenant(tenant),
    DEMO_USERS.find((u) => u.username === username)!,
  );

const call = (
  tenant: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) => callGateway(stack.gatewayUrl, tenant, method, path, options);

async function signIn(tenant: string, username: string): Promise<string> {
  const r = await call(tenant, 'POST', '/api/users/auth/signin', {
    body: { username, password: DEMO_PASSWORD },
  });
  expect(r.status, `${tenant}/${username} signs in`).toBe(200);
  expect(r.headers.get('set-cookie')).toMatch(/Path=\/api\/users\/auth/i);
  return r.json.access_token as string;
}

beforeAll(async () => {
  t = await createTestEnv({ UPSTREAM_TIMEOUT_MS: '2000' });
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const u of [...USERS, 'forcereset']) {
    tokens.set(`acme:${u}`, await signIn('acme', u));
  }
  for (const u of ['partner.admin', 'merchant.admin'])
    tokens.set(`northbank:${u}`, await signIn('northbank', u));
});

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const tok = (u: string, tenant = 'acme') => tokens.get(`${tenant}:${u}`)!;

/** A representative call per route group, and who passes the gateway's policy (others get 403). */
const MATRIX: Array<{ name: string; method: string; path: string; body?: unknown; allowed: string[] }> = [
  { name: 'case list', method: 'GET', path: '/api/cm/cases?limit=1', allowed: ['*'] },
  { name: 'lookup', method: 'GET', path: '/api/cm/gen/countries?limit=999', allowed: ['*'] },
  { name: 'whoami', method: 'POST', path: '/api/users/whoami', allowed: ['*'] },
  { name: 'stack config', method: 'GET', path: '/api/config/cfg/stack_config_be', allowed: ['*'] },
  { name: 'user list', method: 'GET', path: '/api/users/users?limit=1', allowed: ['*'] },
  {
    name: 'create user',
    method: 'POST',
    path: '/api/users/users',
    body: {},
    allowed: ['admin', 'manager', 'partner.admin', 'merchant.admin'],
  },
  {
    name: 'users export (xlsx)',
    method: 'GET',
    path: '/api/users/users.xlsx',
    allowed: ['admin', 'manager', 'partner.admin', 'merchant.admin', 'readonly'],
  },
  {
    name: 'edit merchant',
    method: 'PATCH',
    path: '/api/cm/merchants/1000011',
    body: {},
    allowed: ['admin', 'manager', 'partner.admin'],
  },
  {
    name: 'admin review',
    method: 'PATCH',
    path: '/api/cm/review',
    body: {},
    allowed: ['admin', 'manager', 'agent'],
  },
  {
    name: 'case edit',
    method: 'PATCH',
    path: '/api/cm/cases/999999999/edit',
    body: { verdict_id: 1 },
    allowed: [
      'admin',
      'manager',
      'agent',
      'partner.admin',
      'partner.user',
      'merchant.admin',
      'merchant.user',
    ],
  },
  {
    name: 'qc review',
    method: 'PATCH',
    path: '/api/cm/cases/qc',
    body: {},
    allowed: ['admin', 'manager', 'agent'],
  },
  {
    name: 'event tracking',
    method: 'POST',
    path: '/api/users/events/tracking',
    body: { key: 'k', event: 'e', action: 'a', message: 'm' },
    allowed: ['*'],
  },
  {
    name: 'users export (csv)',
    method: 'GET',
    path: '/api/users/users.csv',
    allowed: ['admin', 'manager', 'partner.admin', 'merchant.admin', 'readonly'],
  },
  // Merchant API keys (issue 35.1): key managers only; a read-only admin may list, not create.
  {
    name: 'api keys list',
    method: 'GET',
    path: '/api/users/api-keys',
    allowed: ['admin', 'manager', 'partner.admin', 'merchant.admin', 'readonly'],
  },
  {
    name: 'api key create',
    method: 'POST',
    path: '/api/users/api-keys',
    body: {},
    allowed: ['admin', 'manager', 'partner.admin', 'merchant.admin'],
  },
  { name: 'unknown write', method: 'POST', path: '/api/cm/not-a-route', body: {}, allowed: [] },
  // Default deny covers reads too (issue 30.5): every route has its row.
  { name: 'unknown read', method: 'GET', path: '/api/cm/not-a-route', allowed: [] },
];

describe('policy matrix: every demo user against each route group', () => {
  for (const row of MATRIX) {
    it(row.name, async () => {
      const outcome: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const u of USERS) {
        const r = await call('acme', row.method, row.path, { token: tok(u), body: row.body });
        expect(r.status, `${u} ${row.name}: never a 401 or 5xx`).not.toBe(401);
        expect(r.status, `${u} ${row.name}`).toBeLessThan(500);
        outcome[u] = r.status === 403 ? 'refused' : 'passed';
        expected[u] = row.allowed.includes('*') || row.allowed.includes(u) ? 'passed' : 'refused';
      }
      expect(outcome).toEqual(expected);
    });
  }

  it('refuses every write of the read-only user with the read-only message, but not the allow-list', async () => {
    const edit = await call('acme', 'PATCH', '/api/cm/cases/1/edit', {
      token: tok('readonly'),
      body: { verdict_id: 1 },
    });
    expect(edit.status).toBe(403);
    expect(edit.json.message).toBe('Your account is read-only.');
    expect((await call('acme', 'POST', '/api/users/whoami', { token: tok('readonly') })).status).toBe(200);
  });

  it('forces the password update: 403 with code 401 everywhere but whoami and the password calls', async () => {
    const r = await call('acme', 'GET', '/api/cm/cases?limit=1', { token: tok('forcereset') });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 401, data: { code: 401 }, message: 'Password update required.' });
    const who = await call('acme', 'POST', '/api/users/whoami', { token: tok('forcereset') });
    expect(who.status).toBe(200);
    expect(who.json.must_update_password).toBe(true);
    const pw = await call('acme', 'POST', '/api/users/auth/password', {
      token: tok('forcereset'),
      body: { current_password: 'wrong', new_password: 'x' },
    });
    expect(pw.status).not.toBe(403);
  });

  it('refuses a token for another tenant and spoofed internal headers', async () => {
    expect(
      (await call('acme', 'GET', '/api/cm/cases?limit=0', { token: tok('merchant.admin', 'northbank') }))
        .status,
    ).toBe(401);
    const forged = signContext(
      {
        tenant: 'acme',
        user_id: id('acme', 'admin'),
        actor_id: id('acme', 'admin'),
        username: 'admin',
        roles: ['cb911_admin'],
        merchant_id: null,
        read_only: false,
        mids_allowed: [],
        mids_excluded: [],
        request_id: 'x',
        kind: 'user',
      },
      'not-the-secret-not-the-secret-not-the-secret',
    );
    const plain = await call('acme', 'GET', '/api/cm/cases?limit=0', { token: tok('merchant.user') });
    const spoofed = await call('acme', 'GET', '/api/cm/cases?limit=0', {
      token: tok('merchant.user'),
      headers: { [INTERNAL_CONTEXT_HEADER]: forged, 'x-client-ip': '1.2.3.4' },
    });
    const admin = await call('acme', 'GET', '/api/cm/cases?limit=0', { token: tok('admin') });
    expect(spoofed.status).toBe(200);
    expect(spoofed.json.pagination).toEqual(plain.json.pagination);
    expect((admin.json.pagination as { total: number }).total).toBeGreaterThan(
      (plain.json.pagination as { total: number }).total,
    );
  });

  it('a service called directly without the gateway context refuses', async () => {
    const r = await fetch(`${stack.serviceUrls.case}/cm/cases?limit=1`);
    expect(r.status).toBe(401);
  });
});

describe('impersonation', () => {
  const as = (actor: string, target: number, tenant = 'acme') => ({
    token: tok(actor, tenant),
    headers: { 'x-impersonate-user-id': String(target) },
  });

  it('cb911_admin acts as merchant.user; whoami names the actor; audit rows have both ids', async () => {
    const who = await call('acme', 'POST', '/api/users/whoami', as('admin', id('acme', 'merchant.user')));
    expect(who.status).toBe(200);
    expect(who.json).toMatchObject({
      id: id('acme', 'merchant.user'),
      impersonated_by: { id: id('acme', 'admin') },
    });
    const cases = await call(
      'acme',
      'GET',
      '/api/cm/cases?limit=0',
      as('admin', id('acme', 'merchant.user')),
    );
    const own = await call('acme', 'GET', '/api/cm/cases?limit=0', { token: tok('merchant.user') });
    expect(cases.json.pagination).toEqual(own.json.pagination);
    await expect
      .poll(async () => {
        const { rows } = await t.db.query<{ n: string }>(
          `select count(*) as n from users.audit_log where tenant = 'acme' and actor_id = $1 and user_id = $2 and route = '/api/cm/cases'`,
          [id('acme', 'admin'), id('acme', 'merchant.user')],
        );
        return Number(rows[0]!.n);
      })
      .toBeGreaterThanOrEqual(1);
  });

  it('refuses by each rule', async () => {
    const target = id('acme', 'merchant.user');
    expect((await call('acme', 'GET', '/api/cm/cases?limit=0', as('manager', target))).status).toBe(403); // not an admin
    expect((await call('acme', 'GET', '/api/cm/cases?limit=0', as('partner.admin', target))).status).toBe(
      403,
    ); // standard tenant
    expect(
      (
        await call(
          'northbank',
          'GET',
          '/api/cm/cases?limit=0',
          as('partner.admin', id('northbank', 'merchant.user'), 'northbank'),
        )
      ).status,
    ).toBe(200); // payment processor
    expect(
      (await call('acme', 'GET', '/api/cm/cases?limit=0', as('admin', id('acme', 'admin')))).status,
    ).toBe(403); // self
    expect(
      (await call('acme', 'GET', '/api/cm/cases?limit=0', as('admin', id('northbank', 'merchant.user'))))
        .status,
    ).toBe(403); // other tenant
    const lock = await call('acme', 'POST', `/api/users/users/${id('acme', 'federated')}/lock`, {
      token: tok('admin'),
    });
    expect(lock.status).toBe(200);
    expect(
      (await call('acme', 'GET', '/api/cm/cases?limit=0', as('admin', id('acme', 'federated')))).status,
    ).toBe(403); // inactive
  });

  it('a read-only target stays read-only while impersonated', async () => {
    const r = await call('acme', 'PATCH', '/api/cm/cases/1/edit', {
      ...as('admin', id('acme', 'readonly')),
      body: { verdict_id: 1 },
    });
    expect(r.status).toBe(403);
  });
});

describe('profile actions of users without user administration', () => {
  it("a merchant user edits their own name and locks an IP of their own login history, but nobody else's record", async () => {
    const self = await call('acme', 'PATCH', `/api/users/users/${id('acme', 'merchant.user')}`, {
      token: tok('merchant.user'),
      body: { fname: 'Maxine' },
    });
    expect(self.status).toBe(200);
    const other = await call('acme', 'PATCH', `/api/users/users/${id('acme', 'merchant.admin')}`, {
      token: tok('merchant.user'),
      body: { fname: 'Nope' },
    });
    // Without user administration another user's record is not even visible.
    expect(other.status).toBe(404);
    const block = await call('acme', 'POST', '/api/users/blockip', {
      token: tok('merchant.user'),
      body: { ip: '203.0.113.7', is_allowed: false },
    });
    expect(block.status).toBeLessThan(300);
    const readonly = await call('acme', 'POST', '/api/users/blockip', {
      token: tok('readonly'),
      body: { ip: '203.0.113.8', is_allowed: false },
    });
    expect(readonly.status).toBe(403);
  });
});

describe('cache invalidation by the user service', () => {
  it('a profile change is seen at once: MISS after the publish, HIT after', async () => {
    const me = await call('acme', 'POST', '/api/users/whoami', { token: tok('agent') });
    expect(me.headers.get('x-cache')).toBe('HIT');
    const patch = await call('acme', 'PATCH', `/api/users/users/${id('acme', 'agent')}`, {
      token: tok('admin'),
      body: { fname: 'Alexis' },
    });
    expect(patch.status).toBe(200);
    await expect
      .poll(async () => (await call('acme', 'POST', '/api/users/whoami', { token: tok('agent') })).json.fname)
      .toBe('Alexis');
  });
});

describe('an upstream stopped', () => {
  it('answers JSON 503 within the timeout, naming no internal address', async () => {
    await stack.services.builder.close();
    const started = Date.now();
    // manager holds the case-builder role (a per-user grant, demo seed) that the builder calls need.
    const r = await call('acme', 'GET', '/api/builder/products?limit=5', { token: tok('manager') });
    expect(r.status).toBe(503);
    expect(r.json).toEqual({ statusCode: 503, error: 'Service Unavailable', message: expect.any(String) });
    expect(JSON.stringify(r.json)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
