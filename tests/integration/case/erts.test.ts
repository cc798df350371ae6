import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';
import { reviewSupport } from './review-support';

let c: CaseApp;
const s = reviewSupport(() => c);
const agent = demoCtx('acme', 'agent');
const merchantAdmin = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
const northbank = demoCtx('northbank', 'manager');

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const ertCount = async (id: number) =>
  Number(
    (await c.t.db.query<{ n: number }>(`select count(*)::int as n from cases.erts where case_id = $1`, [id]))
      .rows[0]!.n,
  );

describe('ERTs (spec 2 §2.4, §7)', () => {
  it('adds an ERT with the spec defaults and a history row, then lists it', async () => {
    const [id] = await s.cases(1, { status: 3 });
    const r = await c.call('POST', `/ert/case/${id}/erts`, agent, {
      content: '  Customer called the issuer.  ',
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('ERT record successfully saved.');
    expect(r.body.data).toMatchObject({
      cb_id: id,
      content: 'Customer called the issuer.',
      status_id: 1,
      is_active: true,
      level_id: 1,
      type_id: 7,
      created_by: 'agent',
      user_id: agent.user_id,
    });
    expect(r.body.data.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await s.history(id!)).at(-1)).toMatchObject({ action: 'ERT added: Customer called the issuer.' });
    const list = await c.call('GET', `/ert/case/${id}/erts`, agent);
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data[0].id).toBe(r.body.data.id);
  });

  it('keeps given values and checks the merchant', async () => {
    const [id] = await s.cases(1, { merchantA1: true });
    const a1 = demoMerchantId(ACME, 'merchantA1');
    const ok = await c.call('POST', `/ert/case/${id}/erts`, merchantAdmin, {
      content: 'Level two',
      level_id: 2,
      merchant_id: a1,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ level_id: 2, merchant_id: a1 });
    const wrong = await c.call('POST', `/ert/case/${id}/erts`, merchantAdmin, {
      content: 'x',
      merchant_id: a1 + 1,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('merchant_id');
    expect(await ertCount(id!)).toBe(1);
  });

  it('refuses read-only callers and bad input, writing nothing', async () => {
    const [id] = await s.cases(1, { merchantA1: true });
    const h = (await s.history(id!)).length;
    expect((await c.call('POST', `/ert/case/${id}/erts`, readonly, { content: 'x' })).status).toBe(403);
    for (const body of [{}, { content: '' }, { content: '   ' }]) {
      const r = await c.call('POST', `/ert/case/${id}/erts`, agent, body);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('content');
    }
    const extra = await c.call('POST', `/ert/case/${id}/erts`, agent, { content: 'x', extra: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('additional properties');
    expect((await c.call('POST', '/ert/case/abc/erts', agent, { content: 'x' })).status).toBe(400);
    expect(await ertCount(id!)).toBe(0);
    expect((await s.history(id!)).length).toBe(h);
    // Read-only users may still read.
    expect((await c.call('GET', `/ert/case/${id}/erts`, readonly)).status).toBe(200);
  });

  it('answers 404 out of scope', async () => {
    const other = await s.otherMerchantCase();
    expect((await c.call('GET', `/ert/case/${other}/erts`, merchantAdmin)).status).toBe(404);
    expect((await c.call('POST', `/ert/case/${other}/erts`, merchantAdmin, { content: 'x' })).status).toBe(
      404,
    );
    expect((await c.call('POST', `/ert/case/${other}/erts`, northbank, { content: 'x' })).status).toBe(404);
    expect(await ertCount(other)).toBe(0);
  });
});
