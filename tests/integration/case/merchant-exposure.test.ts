import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoMerchantId, demoTenant, type DemoMerchantKey } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 20 item 8: partner and merchant users read their own subtree's
 * merchants in full, but of the merchants above it only id and
 * business_name (no contact, e-mail, phone, allowed domains, MID counts).
 * Real gateway + services.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const call = (tenant: string, path: string, token: string) =>
  callGateway(stack.gatewayUrl, tenant, 'GET', path, { token });
const mid = (tenant: string, key: DemoMerchantKey) => demoMerchantId(demoTenant(tenant), key);

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const tenant of ['acme', 'northbank'])
    for (const u of [
      'admin',
      'manager',
      'partner.admin',
      'partner.user',
      'merchant.admin',
      'merchant.user',
    ]) {
      const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
        body: { username: u, password: DEMO_PASSWORD },
      });
      expect(r.status, `${tenant}/${u}`).toBe(200);
      tokens.set(`${tenant}:${u}`, r.json.access_token as string);
    }
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const FULL_ONLY = [
  'contact',
  'allowed_domains',
  'mids_count',
  'business_phone',
  'business_address',
  'features',
];

type Row = [user: string, merchant: DemoMerchantKey, expected: 'full' | 'name' | 404];
const MATRIX: Row[] = [
  ['admin', 'root', 'full'],
  ['admin', 'partnerB', 'full'],
  ['manager', 'root', 'full'],
  ['partner.admin', 'root', 'name'],
  ['partner.admin', 'partnerA', 'full'],
  ['partner.admin', 'merchantA1', 'full'],
  ['partner.admin', 'partnerB', 404],
  ['partner.user', 'root', 'name'],
  ['partner.user', 'partnerA', 'full'],
  ['merchant.admin', 'root', 'name'],
  ['merchant.admin', 'partnerA', 'name'],
  ['merchant.admin', 'merchantA1', 'full'],
  ['merchant.admin', 'merchantA2', 404],
  ['merchant.user', 'root', 'name'],
  ['merchant.user', 'partnerA', 'name'],
  ['merchant.user', 'merchantA1', 'full'],
  ['merchant.user', 'merchantB1', 404],
];

describe('GET /api/cm/merchants/{id}', () => {
  for (const tenant of ['acme', 'northbank'])
    it.each(MATRIX)(`${tenant}: %s reads %s -> %s`, async (user, key, expected) => {
      const r = await call(tenant, `/api/cm/merchants/${mid(tenant, key)}`, tokens.get(`${tenant}:${user}`)!);
      if (expected === 404) {
        expect(r.status).toBe(404);
        return;
      }
      expect(r.status).toBe(200);
      expect(r.json.id).toBe(mid(tenant, key));
      expect(r.json.business_name).toEqual(expect.any(String));
      if (expected === 'name') {
        expect(Object.keys(r.json).sort()).toEqual(['business_name', 'id']);
      } else {
        for (const field of FULL_ONLY) expect(r.json, field).toHaveProperty(field);
      }
    });

  it('the other tenant cannot be read at all', async () => {
    const r = await call(
      'acme',
      `/api/cm/merchants/${mid('northbank', 'root')}`,
      tokens.get('acme:merchant.user')!,
    );
    expect(r.status).toBe(404);
  });
});

describe('whoami and the merchant list', () => {
  it('whoami carries only the own merchant (id, name, banner flag)', async () => {
    const r = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/whoami', {
      token: tokens.get('acme:merchant.user')!,
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.merchant as object).sort()).toEqual([
      'business_name',
      'id',
      'show_alerts_banner',
    ]);
    expect(JSON.stringify(r.json)).not.toMatch(/example\.com|summit\.example|contact/);
  });

  it('the merchant list of a merchant user holds its subtree only', async () => {
    const r = await call('acme', '/api/cm/merchants?limit=999', tokens.get('acme:merchant.user')!);
    expect(r.status).toBe(200);
    const ids = (r.json.data as { id: number }[]).map((m) => m.id);
    expect(ids).toContain(mid('acme', 'merchantA1'));
    expect(ids).not.toContain(mid('acme', 'partnerA'));
    expect(ids).not.toContain(mid('acme', 'root'));
  });
});
