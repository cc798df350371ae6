import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * QC and admin review through the gateway (spec 2 §2.4, §2.5, §6): the
 * review screens' calls are for the provider's staff only, read-only users
 * write nothing, and the QC Do Not Represent call needs the tenant flag
 * CASE_QC_REVIEW.DO_NOT_REPRESENT (on for acme, off for northbank).
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();

const call = (tenant: string, user: string, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

async function qcCase(tenant: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `select c.id from cases.cases c left join cases.case_marks k on k.case_id = c.id
     where c.tenant_id = $1 and c.status_id = 3 and k.case_id is null order by c.id desc limit 1`,
    [tenant],
  );
  return Number(rows[0]!.id);
}
const statusOf = async (id: number) =>
  Number(
    (await t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [id]))
      .rows[0]!.status_id,
  );

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const users: Array<[string, string]> = [
    ['acme', 'agent'],
    ['acme', 'partner.admin'],
    ['acme', 'partner.user'],
    ['acme', 'merchant.admin'],
    ['acme', 'merchant.user'],
    ['acme', 'readonly'],
    ['northbank', 'agent'],
  ];
  for (const [tenant, username] of users) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status, `${tenant}/${username} signs in`).toBe(200);
    tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }
});
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('review calls through the gateway', () => {
  it('lets staff read the QC queue and admin review; partners and merchants get 403', async () => {
    const reads = ['/api/cm/cases/qc?limit=5', '/api/cm/review?limit=5', '/api/cm/review/actions'];
    for (const path of reads) expect((await call('acme', 'agent', 'GET', path)).status, path).toBe(200);
    const id = await qcCase('acme');
    expect((await call('acme', 'agent', 'GET', `/api/cm/cases/qc/${id}`)).status).toBe(200);
    expect((await call('acme', 'agent', 'GET', `/api/cm/review/${id}`)).status).toBe(200);
    for (const user of ['partner.admin', 'partner.user', 'merchant.admin', 'merchant.user', 'readonly']) {
      for (const path of [
        ...reads,
        `/api/cm/cases/qc/${id}`,
        `/api/cm/cases/qc/next`,
        `/api/cm/review/${id}`,
      ]) {
        const r = await call('acme', user, 'GET', path);
        expect(r.status, `${user} GET ${path}`).toBe(403);
      }
      const w = await call('acme', user, 'PATCH', '/api/cm/review', { cases: [{ id, action_id: 1 }] });
      expect(w.status, `${user} PATCH /cm/review`).toBe(403);
    }
    // GET /cm/cases/qc/next claims a case: it must not have run for the refused callers.
    const { rows } = await t.db.query(`select 1 from cases.case_marks where username <> 'agent'`);
    expect(rows).toHaveLength(0);
  });

  it('QC Do Not Represent: allowed with the tenant flag on, 403 with it off', async () => {
    const id = await qcCase('acme');
    const r = await call('acme', 'agent', 'PATCH', '/api/cm/cases/qc/dnr', { id });
    expect(r.status).toBe(200);
    expect(r.json.message).toBe(`Case ${id} was successfully moved to Do Not Represent. Loading next...`);
    expect(await statusOf(id)).toBe(4);

    const nb = await qcCase('northbank');
    const off = await call('northbank', 'agent', 'PATCH', '/api/cm/cases/qc/dnr', { id: nb });
    expect(off.status).toBe(403);
    // Nor through the approve call with the DNR action id.
    const sneaky = await call('northbank', 'agent', 'PATCH', '/api/cm/cases/qc', { id: nb, action_id: 2 });
    expect(sneaky.status).toBe(400);
    expect(await statusOf(nb)).toBe(3);
  });

  it('refuses every review write of a read-only user and changes nothing', async () => {
    const id = await qcCase('acme');
    const writes: Array<[string, string, unknown]> = [
      ['PATCH', '/api/cm/cases/qc', { id, action_id: 1 }],
      ['PATCH', '/api/cm/cases/qc/dnr', { id }],
      ['PATCH', '/api/cm/review', { cases: [{ id, action_id: 2, note: 'x' }] }],
      ['PATCH', '/api/cm/review', { cases: [{ id, assign_id: null }] }],
      ['PATCH', '/api/cm/cases/patch', { ids: String(id), status: 1, type: 'qc-review' }],
      ['POST', `/api/ert/case/${id}/erts`, { content: 'x' }],
    ];
    for (const [method, path, body] of writes) {
      const r = await call('acme', 'readonly', method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    expect(await statusOf(id)).toBe(3);
  });
});
