import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_MERCHANT_OFFSET, demoMerchantId, type DemoMerchantKey } from '@portal/contracts';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
/** One open case of each place in the hierarchy. */
const sample: Record<string, number> = {};
beforeAll(async () => {
  c = await startCaseApp();
  const pick = async (tenant: string, merchantId: number) => {
    const { rows } = await c.t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = $1 and merchant_id = $2 and status_id = 1 order by id limit 1`,
      [tenant, merchantId],
    );
    return Number(rows[0]!.id);
  };
  for (const key of ['merchantA1', 'merchantA2', 'merchantB1'] as DemoMerchantKey[])
    sample[key] = await pick('acme', demoMerchantId(ACME, key));
  // A generated merchant directly under the root (every third one, see the seed).
  const { rows } = await c.t.db.query<{ id: number }>(
    `select id from cases.merchants where tenant_id = 'acme' and parent_id = $1 and id >= $2 order by id limit 1`,
    [demoMerchantId(ACME, 'root'), demoMerchantId(ACME, 'root') - 1 + SEED_MERCHANT_OFFSET],
  );
  sample.rootChild = await pick('acme', Number(rows[0]!.id));
  sample.otherTenant = await pick('northbank', demoMerchantId(NORTHBANK, 'merchantA1'));
});
afterAll(async () => c.close());

const VISIBLE: Record<string, string[]> = {
  admin: ['merchantA1', 'merchantA2', 'merchantB1', 'rootChild'],
  manager: ['merchantA1', 'merchantA2', 'merchantB1', 'rootChild'],
  agent: ['merchantA1', 'merchantA2', 'merchantB1', 'rootChild'],
  'partner.admin': ['merchantA1', 'merchantA2'],
  'partner.user': ['merchantA1', 'merchantA2'],
  'merchant.admin': ['merchantA1'],
  'merchant.user': ['merchantA1'],
  readonly: ['merchantA1'],
};

describe('data scope: demo users against cases of other merchants and the other tenant', () => {
  for (const [user, visible] of Object.entries(VISIBLE)) {
    it(`${user} sees ${visible.join(', ')} and nothing else`, async () => {
      const ctx = demoCtx('acme', user);
      for (const place of ['merchantA1', 'merchantA2', 'merchantB1', 'rootChild', 'otherTenant']) {
        const id = sample[place]!;
        const expected = visible.includes(place) ? 200 : 404;
        const detail = await c.call('GET', `/cm/cases/${id}`, ctx);
        expect(detail.status, `${user} GET ${place}`).toBe(expected);
        if (expected === 404)
          expect(detail.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Case not found.' });
        const history = await c.call('GET', `/cm/cases/${id}/history`, ctx);
        expect(history.status, `${user} history ${place}`).toBe(expected);
        const search = await c.call('GET', `/cm/cases?search=${id}`, ctx);
        expect(
          search.body.data.some((r: { id: number }) => r.id === id),
          `${user} search ${place}`,
        ).toBe(expected === 200);
        if (expected === 404 && user !== 'readonly') {
          const write = await c.call('POST', `/cm/cases/${id}/flag`, ctx, { comment: 'not mine' });
          expect(write.status, `${user} flag ${place}`).toBe(404);
          const bulk = await c.call('PUT', '/cm/cases/flag', ctx, {
            flags: [{ case_id: id, is_flagged: true }],
          });
          expect(bulk.status, `${user} bulk flag ${place}`).toBe(400);
          expect(bulk.body.message).toContain('flags');
        }
      }
      const list = await c.call('GET', '/cm/cases?limit=1000', ctx);
      const merchants = new Set(list.body.data.map((r: { merchant_id: number }) => r.merchant_id));
      if (visible.length === 1) expect([...merchants]).toEqual([demoMerchantId(ACME, 'merchantA1')]);
      expect(list.body.data.every((r: { id: number }) => r.id < 20_000_000)).toBe(true);
    });
  }

  it('the other tenant sees none of acme, even with a provider role', async () => {
    const ctx = demoCtx('northbank', 'admin');
    expect((await c.call('GET', `/cm/cases/${sample.merchantA1}`, ctx)).status).toBe(404);
    const list = await c.call('GET', '/cm/cases?limit=0', ctx);
    expect(list.body.pagination.total).toBe(3000);
    const client = await c.call('GET', `/cm/cases?client_id=${demoMerchantId(ACME, 'merchantA1')}`, ctx);
    expect(client.status).toBe(400);
  });

  it('a merchant user cannot widen its scope with client_id', async () => {
    const r = await c.call(
      'GET',
      `/cm/cases?client_id=${demoMerchantId(ACME, 'partnerA')}`,
      demoCtx('acme', 'merchant.admin'),
    );
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('client_id');
  });

  it('applies MID allow and exclude lists on top of the merchant scope', async () => {
    const { rows } = await c.t.db.query<{ id: number; mid: string }>(
      `select id, mid from cases.mids where merchant_id = $1 order by id`,
      [demoMerchantId(ACME, 'merchantA1')],
    );
    const [first, second] = rows as [{ id: number; mid: string }, { id: number; mid: string }];
    const count = async (where: string, params: unknown[]) =>
      (await c.t.db.query<{ n: number }>(`select count(*)::int as n from cases.cases where ${where}`, params))
        .rows[0]!.n;
    const allowed = await c.call(
      'GET',
      '/cm/cases?limit=0',
      demoCtx('acme', 'merchant.admin', { mids_allowed: [first.mid] }),
    );
    expect(allowed.body.pagination.total).toBe(await count('mid_id = $1', [first.id]));
    const excluded = await c.call(
      'GET',
      '/cm/cases?limit=0',
      demoCtx('acme', 'merchant.admin', { mids_excluded: [second.mid] }),
    );
    expect(excluded.body.pagination.total).toBe(
      await count('merchant_id = $1 and mid_id <> $2', [demoMerchantId(ACME, 'merchantA1'), second.id]),
    );
    const other = await c.t.db.query<{ id: number }>(`select id from cases.cases where mid_id = $1 limit 1`, [
      second.id,
    ]);
    const hidden = await c.call(
      'GET',
      `/cm/cases/${other.rows[0]!.id}`,
      demoCtx('acme', 'merchant.admin', { mids_allowed: [first.mid] }),
    );
    expect(hidden.status).toBe(404);
  });

  it('a user context without a merchant sees nothing', async () => {
    const r = await c.call('GET', '/cm/cases?limit=0', {
      tenant: 'acme',
      kind: 'user',
      user_id: 5,
      roles: ['merchant_user'],
      merchant_id: null,
    });
    expect(r.body.pagination.total).toBe(0);
  });
});
