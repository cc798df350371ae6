import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoMerchantId, demoTenant } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Merchant and MID administration through the gateway (spec 3 §6): the page
 * roles CREATE_MERCHANT, CREATE_MID, EDIT_MID, EDIT_RDR and the MID history
 * roles are checked before the service, and read-only users write nothing.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const call = (user: string, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token: tokens.get(user), body });

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const username of ['admin', 'partner.admin', 'partner.user', 'merchant.admin', 'readonly']) {
    const r = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status, `${username} signs in`).toBe(200);
    tokens.set(username, r.json.access_token as string);
  }
});
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const merchant = () => ({
  business_name: `GW ${Date.now().toString(36)}`,
  business_address: '1 Way',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US',
  business_phone: '555',
});
const mid = () => ({
  mid: `GW${Date.now().toString().slice(-9)}`,
  alias: 'GW',
  merchant_id: A1,
  descriptor: 'GW*D',
  processor_id: 1,
  service_level_id: 1,
});

describe('merchant administration through the gateway', () => {
  it('applies the page roles and read-only before the service', async () => {
    const before = Number(
      (await t.db.query<{ n: number }>(`select count(*)::int as n from cases.merchants`)).rows[0]!.n,
    );
    expect((await call('merchant.admin', 'POST', '/api/cm/merchants', merchant())).status).toBe(403);
    expect((await call('readonly', 'POST', '/api/cm/merchants', merchant())).status).toBe(403);
    expect((await call('partner.user', 'POST', '/api/cm/mids', mid())).status).toBe(403);
    expect(
      Number((await t.db.query<{ n: number }>(`select count(*)::int as n from cases.merchants`)).rows[0]!.n),
    ).toBe(before);
    const created = await call('partner.admin', 'POST', '/api/cm/merchants', merchant());
    expect(created.status).toBe(201);
    const m = await call('partner.admin', 'POST', '/api/cm/mids', mid());
    expect(m.status).toBe(201);
    const id = (m.json.data as { id: number }).id;
    expect(
      (await call('merchant.admin', 'PATCH', `/api/cm/mids/${id}`, { alias: 'by m.admin' })).status,
    ).toBe(200);
    expect((await call('readonly', 'PATCH', `/api/cm/mids/${id}`, { alias: 'ro' })).status).toBe(403);
    // MID history: cb911 admin, partner admin and partner user only.
    expect((await call('merchant.admin', 'GET', `/api/cm/mids/${id}/history`)).status).toBe(403);
    const h = await call('partner.user', 'GET', `/api/cm/mids/${id}/history?start=0&limit=5`);
    expect(h.status).toBe(200);
    expect((h.json.data as { field: string }[]).map((r) => r.field)).toEqual(['alias']);
    expect((await call('admin', 'GET', `/api/cm/merchants/list?start=0&limit=20`)).status).toBe(200);
    expect((await call('partner.user', 'PUT', `/api/cm/mids/${id}/rules/rdr`, { rules: [] })).status).toBe(
      403,
    );
  });
});
