import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, type MerchantList } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const list = async (url: string, username: string) => {
  const r = await c.call('GET', url, demoCtx('acme', username));
  expect(r.status).toBe(200);
  return r.body as MerchantList;
};

describe('GET /cm/merchants', () => {
  it('lists the whole tenant for staff, by name, paged', async () => {
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.merchants where tenant_id = 'acme'`,
    );
    const first = await list('/cm/merchants?limit=5', 'manager');
    expect(first.pagination).toEqual({ total: rows[0]!.n, limit: 5, start: 0 });
    expect(first.data).toHaveLength(5);
    const names = first.data.map((m) => m.business_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const next = await list('/cm/merchants?limit=5&start=5', 'manager');
    expect(next.data.map((m) => m.id)).not.toContain(first.data[0]!.id);
  });

  it('keeps a partner to its subtree and a merchant user to its own merchant', async () => {
    const partner = await list('/cm/merchants?limit=999', 'partner.admin');
    const ids = partner.data.map((m) => m.id);
    expect(ids).toContain(demoMerchantId(ACME, 'partnerA'));
    expect(ids).toContain(demoMerchantId(ACME, 'merchantA1'));
    expect(ids).not.toContain(demoMerchantId(ACME, 'partnerB'));
    expect(ids).not.toContain(demoMerchantId(ACME, 'root'));
    const merchant = await list('/cm/merchants', 'merchant.user');
    expect(merchant.data.map((m) => m.id)).toEqual([demoMerchantId(ACME, 'merchantA1')]);
    // Another tenant's merchants never show.
    const other = await c.call('GET', '/cm/merchants?search=Northbank', demoCtx('acme', 'manager'));
    expect(other.body.data).toEqual([]);
  });

  it('searches name and alias literally and answers 400 for a bad limit', async () => {
    const found = await list('/cm/merchants?search=blue%20sky', 'manager');
    expect(found.data.map((m) => m.business_name)).toEqual(['Acme Blue Sky Outfitters']);
    expect((await list('/cm/merchants?search=%25', 'manager')).data).toEqual([]);
    const bad = await c.call('GET', '/cm/merchants?limit=5000', demoCtx('acme', 'manager'));
    expect(bad.status).toBe(400);
  });
});
