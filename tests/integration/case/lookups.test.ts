import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_PATHS, demoMerchantId } from '@portal/contracts';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

describe('lookups GET /cm/gen/*', () => {
  it('answers every lookup as {data, pagination} with limit 999 by default', async () => {
    for (const path of LOOKUP_PATHS) {
      const r = await c.call('GET', path, demoCtx('acme', 'admin'));
      expect(r.status, path).toBe(200);
      expect(r.body.pagination).toMatchObject({ limit: 999, start: 0 });
      expect(r.body.data.length, path).toBeGreaterThan(0);
      expect(r.body.pagination.total).toBe(r.body.data.length);
    }
  });

  it('gives reason codes with card type, fraud flag and display name; filters by is_fraud and search', async () => {
    const all = await c.call('GET', '/cm/gen/rc?limit=999', demoCtx('acme', 'agent'));
    const visa104 = all.body.data.find((r: { code: string }) => r.code === '10.4');
    expect(visa104).toMatchObject({
      name: 'Visa - 10.4',
      is_fraud: true,
      card_type: { id: 1, name: 'Visa' },
      category: { name: 'Fraud' },
    });
    expect(all.body.data.some((r: { code: string }) => r.code === '4837')).toBe(true);
    expect(all.body.data.some((r: { code: string }) => r.code === 'F29')).toBe(true);
    expect(all.body.data.some((r: { code: string }) => r.code === 'UA02')).toBe(true);
    const fraud = await c.call('GET', '/cm/gen/rc?is_fraud=1', demoCtx('acme', 'agent'));
    expect(fraud.body.data.every((r: { is_fraud: boolean }) => r.is_fraud)).toBe(true);
    const search = await c.call('GET', '/cm/gen/rc?search=recurring', demoCtx('acme', 'agent'));
    expect(search.body.data.map((r: { code: string }) => r.code).sort()).toEqual(['13.2', '4841', 'C28']);
  });

  it('pages with start and limit, and limit 0 answers only the count', async () => {
    const page = await c.call('GET', '/cm/gen/countries?start=2&limit=3', demoCtx('acme', 'admin'));
    expect(page.body.data).toHaveLength(3);
    expect(page.body.pagination).toEqual({ total: 10, limit: 3, start: 2 });
    const count = await c.call('GET', '/cm/gen/currencies?limit=0', demoCtx('acme', 'admin'));
    expect(count.body).toEqual({ data: [], pagination: { total: 6, limit: 0, start: 0 } });
  });

  it('rejects a negative limit naming the parameter', async () => {
    const r = await c.call('GET', '/cm/gen/cycles?limit=-1', demoCtx('acme', 'admin'));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('limit');
  });

  it('scopes descriptors to the caller and the tenant', async () => {
    const merchant = await c.call('GET', '/cm/gen/descriptors', demoCtx('acme', 'merchant.admin'));
    const admin = await c.call('GET', '/cm/gen/descriptors', demoCtx('acme', 'admin'));
    expect(merchant.body.pagination.total).toBeGreaterThan(0);
    expect(merchant.body.pagination.total).toBeLessThan(admin.body.pagination.total);
    const mids = await c.t.db.query<{ mid: string }>(`select mid from cases.mids where merchant_id = $1`, [
      demoMerchantId(ACME, 'merchantA1'),
    ]);
    expect(merchant.body.data.every((d: { mid: string }) => mids.rows.some((m) => m.mid === d.mid))).toBe(
      true,
    );
    const other = await c.call(
      'GET',
      `/cm/gen/descriptors?merchant_id=${demoMerchantId(NORTHBANK, 'merchantA1')}`,
      demoCtx('acme', 'admin'),
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('merchant_id');
  });
});

describe('merchants', () => {
  it('GET /cm/merchants/{id} answers the panel shape plus whoami fields to a system context', async () => {
    const id = demoMerchantId(ACME, 'merchantA1');
    const r = await c.call('GET', `/cm/merchants/${id}`, {
      tenant: 'acme',
      kind: 'system',
      roles: [],
      user_id: null,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      business_name: 'Acme Blue Sky Outfitters',
      parent_id: demoMerchantId(ACME, 'partnerA'),
      status: { id: 1 },
      service_level: { id: 5 },
      service_level_id: 5,
      show_alerts_banner: true,
      allowed_domains: ['bluesky.example'],
      mids_count: 3,
      isRootMerchant: false,
      features: [
        { id: 1, name: 'Issuer Documents' },
        { id: 2, name: 'Outcome Verdicts' },
      ],
    });
    expect(r.body.deflectors).toHaveLength(3);
    const partner = await c.call('GET', `/cm/merchants/${demoMerchantId(ACME, 'partnerA')}`, {
      tenant: 'acme',
      kind: 'system',
    });
    expect(partner.body.mids_count).toBeGreaterThan(6);
    const root = await c.call('GET', `/cm/merchants/${demoMerchantId(ACME, 'root')}`, {
      tenant: 'acme',
      kind: 'system',
    });
    expect(root.body.isRootMerchant).toBe(true);
  });

  it('lets a merchant user read its own merchant and its parent, not a sibling or another tenant', async () => {
    const ctx = demoCtx('acme', 'merchant.user');
    expect((await c.call('GET', `/cm/merchants/${demoMerchantId(ACME, 'merchantA1')}`, ctx)).status).toBe(
      200,
    );
    expect((await c.call('GET', `/cm/merchants/${demoMerchantId(ACME, 'partnerA')}`, ctx)).status).toBe(200);
    expect((await c.call('GET', `/cm/merchants/${demoMerchantId(ACME, 'merchantA2')}`, ctx)).status).toBe(
      404,
    );
    expect(
      (await c.call('GET', `/cm/merchants/${demoMerchantId(NORTHBANK, 'merchantA1')}`, ctx)).status,
    ).toBe(404);
    expect(
      (
        await c.call('GET', `/cm/merchants/${demoMerchantId(NORTHBANK, 'merchantA1')}`, {
          tenant: 'acme',
          kind: 'system',
        })
      ).status,
    ).toBe(404);
  });

  it('lists MIDs in scope with GET /cm/mids', async () => {
    const r = await c.call('GET', '/cm/mids?limit=100', demoCtx('acme', 'partner.admin'));
    expect(r.status).toBe(200);
    const merchants = new Set(r.body.data.map((m: { merchant_id: number }) => m.merchant_id));
    expect(merchants.has(demoMerchantId(ACME, 'merchantA1'))).toBe(true);
    expect(merchants.has(demoMerchantId(ACME, 'merchantB1'))).toBe(false);
  });

  it('accepts assignee updates from the user service only', async () => {
    const body = { username: 'new.agent', fname: 'Nia', lname: 'Agent', role_id: 9, is_active: true };
    const refused = await c.call('PUT', '/cm/assignees/1000999', demoCtx('acme', 'admin'), body);
    expect(refused.status).toBe(403);
    const ok = await c.call('PUT', '/cm/assignees/1000999', { tenant: 'acme', kind: 'system' }, body);
    expect(ok.status).toBe(204);
    const { rows } = await c.t.db.query(`select username, role_id from cases.assignees where id = 1000999`);
    expect(rows[0]).toEqual({ username: 'new.agent', role_id: 9 });
  });
});

describe('OpenAPI', () => {
  it('documents every case service route', async () => {
    const r = await c.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(r.statusCode).toBe(200);
    const paths = Object.keys((JSON.parse(r.body) as { paths: Record<string, unknown> }).paths);
    for (const path of [
      '/cm/cases',
      '/cm/cases/{id}',
      '/cm/cases/{id}/edit',
      '/cm/cases/{id}/flag/{flagId}',
      '/cm/cases.csv',
      '/cm/cases/reports/mids-top5',
      '/cm/gen/rc',
      '/cm/merchants/{id}',
    ]) {
      expect(paths, path).toContain(path);
    }
  });
});
