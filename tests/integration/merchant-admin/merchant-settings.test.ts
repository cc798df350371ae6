import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoMerchantId, demoTenant } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The Merchant Settings grid view's server calls (spec 3 §2): Alert Actions on
 * the selected MIDs (all or none, history rows, scope, read-only) and the MIDs
 * grid's CSV and Excel exports (scope, search, formula cells neutralised).
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');
const ETHOCA = 1;
const CDRN = 2;
const call = (user: string, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token: tokens.get(user), body });

async function midsOf(merchantId: number): Promise<number[]> {
  const { rows } = await t.db.query<{ id: string }>(
    `select id from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id`,
    [merchantId],
  );
  return rows.map((r) => Number(r.id));
}
async function deflectorsOf(midId: number): Promise<Record<number, number>> {
  const { rows } = await t.db.query<{ deflector_id: number; status_id: number }>(
    `select deflector_id, status_id from cases.mid_deflectors where mid_id = $1`,
    [midId],
  );
  return Object.fromEntries(rows.map((r) => [Number(r.deflector_id), Number(r.status_id)]));
}
const historyCount = async (midId: number) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from cases.mid_history where mid_id = $1 and field = 'deflectors'`,
        [midId],
      )
    ).rows[0]!.n,
  );

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const username of ['admin', 'merchant.admin', 'readonly', 'partner.user']) {
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

describe('Alert Actions on selected MIDs', () => {
  it('switches the deflectors on at Pending Activation with a history row, once', async () => {
    const [m1, m2] = await midsOf(A1);
    await t.db.query(`delete from cases.mid_deflectors where mid_id = any($1::bigint[])`, [[m1, m2]]);
    // An inactive deflector switched on again starts over at pending.
    await t.db.query(
      `insert into cases.mid_deflectors (tenant_id, mid_id, deflector_id, status_id) values ('acme', $1, $2, 1)`,
      [m2, ETHOCA],
    );
    const before = await historyCount(m1!);
    const r = await call('admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [m1, m2],
      deflector_ids: [ETHOCA, CDRN],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ updated: [m1, m2], unchanged: [], inheriting: [] });
    expect(r.json.message).toBe('Alert enrolment requested for 2 MIDs.');
    expect(await deflectorsOf(m1!)).toEqual({ [ETHOCA]: 2, [CDRN]: 2 });
    expect(await deflectorsOf(m2!)).toEqual({ [ETHOCA]: 2, [CDRN]: 2 });
    expect(await historyCount(m1!)).toBe(before + 1);

    const again = await call('admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [m1],
      deflector_ids: [CDRN],
    });
    expect(again.json).toMatchObject({ updated: [], unchanged: [m1] });
    expect(await historyCount(m1!)).toBe(before + 1);
  });

  it('leaves a MID that inherits its merchant deflectors as it is', async () => {
    const [, , m3] = await midsOf(A1);
    await t.db.query(`update cases.mids set inherit_merchant_deflectors = true where id = $1`, [m3]);
    const before = await deflectorsOf(m3!);
    const r = await call('admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [m3],
      deflector_ids: [CDRN],
    });
    expect(r.json).toMatchObject({ updated: [], inheriting: [m3] });
    expect(await deflectorsOf(m3!)).toEqual(before);
    await t.db.query(`update cases.mids set inherit_merchant_deflectors = false where id = $1`, [m3]);
  });

  it('changes nothing when one MID is outside the caller subtree, unknown or the caller is read-only', async () => {
    const [own] = await midsOf(A1);
    const [foreign] = await midsOf(A2);
    await t.db.query(`delete from cases.mid_deflectors where mid_id = $1`, [own]);
    const outside = await call('merchant.admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [own, foreign],
      deflector_ids: [ETHOCA],
    });
    expect(outside.status).toBe(404);
    expect(await deflectorsOf(own!)).toEqual({});

    const unknown = await call('admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [own],
      deflector_ids: [999],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('deflectors: unknown deflector 999.');

    const readOnly = await call('readonly', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [own],
      deflector_ids: [ETHOCA],
    });
    expect(readOnly.status).toBe(403);
    expect(
      (
        await call('partner.user', 'POST', '/api/cm/mids/alert-actions', {
          mid_ids: [own],
          deflector_ids: [ETHOCA],
        })
      ).status,
    ).toBe(403);
    expect(await deflectorsOf(own!)).toEqual({});

    const mine = await call('merchant.admin', 'POST', '/api/cm/mids/alert-actions', {
      mid_ids: [own],
      deflector_ids: [ETHOCA],
    });
    expect(mine.status).toBe(200);
    expect(await deflectorsOf(own!)).toEqual({ [ETHOCA]: 2 });
  });

  it('refuses empty, oversized and duplicate selections with 400', async () => {
    for (const body of [
      { mid_ids: [], deflector_ids: [1] },
      { mid_ids: [1, 1], deflector_ids: [1] },
      { mid_ids: Array.from({ length: 501 }, (_, i) => i + 1), deflector_ids: [1] },
      { mid_ids: [1], deflector_ids: [] },
      { mid_ids: [1], deflector_ids: [1], extra: true },
    ])
      expect((await call('admin', 'POST', '/api/cm/mids/alert-actions', body)).status).toBe(400);
  });
});

describe('MIDs grid exports', () => {
  const text = async (user: string, path: string) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      headers: { host: 'acme.localhost', authorization: `Bearer ${tokens.get(user)}` },
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it('writes every MID of the grid with the search applied and formula cells neutralised', async () => {
    const mids = await midsOf(A1);
    await t.db.query(`update cases.mids set alias = '=HYPERLINK("x")' where id = $1`, [mids[0]]);
    const csv = await text('admin', `/api/cm/merchants/${A1}/mids.csv`);
    expect(csv.status).toBe(200);
    const lines = csv.body
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('MID,Alias,Descriptor,Platform,MCC,CAID,Service Level,Status,Date Onboarded');
    expect(lines).toHaveLength(mids.length + 1);
    expect(csv.body.toString('utf8')).toContain(`"'=HYPERLINK(""x"")"`);

    const { rows } = await t.db.query<{ mid: string }>(`select mid from cases.mids where id = $1`, [mids[1]]);
    const searched = await text('admin', `/api/cm/merchants/${A1}/mids.csv?search=${rows[0]!.mid}`);
    expect(searched.body.toString('utf8').trim().split('\r\n')).toHaveLength(2);

    const xlsx = await text('admin', `/api/cm/merchants/${A1}/mids.xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.type).toContain('spreadsheetml');
    expect(xlsx.body.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it("refuses another subtree's merchant", async () => {
    expect((await text('merchant.admin', `/api/cm/merchants/${A2}/mids.csv`)).status).toBe(404);
  });
});
