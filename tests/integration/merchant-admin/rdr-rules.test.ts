import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_REQUIRED, RDR_SAVED, demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const MERCHANT_A1 = demoMerchantId(ACME, 'merchantA1');
const PARTNER_B = demoMerchantId(ACME, 'partnerB');
const as = (u: string) => demoCtx('acme', u);

async function newMid(merchantId: number, rdr: boolean) {
  const r = await c.call('POST', '/cm/mids', as('admin'), {
    mid: `R${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 1000)}`,
    alias: 'Rules',
    merchant_id: merchantId,
    descriptor: 'RULES*TEST',
    processor_id: 1,
    service_level_id: 1,
    ...(rdr ? { deflectors: [{ id: 3 }] } : {}),
  });
  expect(r.status).toBe(201);
  return r.body.data.id as number;
}

describe('RDR rules', () => {
  it('lists subjects and operators', async () => {
    const s = await c.call('GET', '/cm/rules/subjects', as('merchant.admin'));
    expect(s.body.data.map((x: { name: string }) => x.name)).toEqual([
      'Issuer BIN',
      'Transaction Date',
      'Transaction Amount',
      'Transaction Currency',
      'Purchase ID',
      'Dispute Category',
      'Condition Code',
    ]);
    const o = await c.call('GET', '/cm/rules/operators', as('merchant.admin'));
    expect(o.body.data.map((x: { name: string }) => x.name)).toEqual([
      'Contains',
      'EqualTo',
      'GreaterThan',
      'LessThan',
      'IsBlank',
      'StartsWith',
      'IsIn',
    ]);
  });

  it('saves and reads back a MID rule set, replacing the previous one', async () => {
    const id = await newMid(MERCHANT_A1, true);
    const rules = [
      { subject_id: 3, operator_id: 4, value: '1,250.50' },
      { subject_id: 2, operator_id: 3, value: '2026-01-31' },
      { subject_id: 1, operator_id: 6, value: '411111' },
    ];
    const r = await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('merchant.admin'), { rules });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(RDR_SAVED);
    expect((await c.call('GET', `/cm/mids/${id}/rules`, as('merchant.admin'))).body.data).toEqual(rules);
    const again = await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('merchant.admin'), {
      rules: [rules[2]],
    });
    expect(again.body.data).toEqual([rules[2]]);
    // The merchant's own rules (its MID carries a pending verifi_rdr).
    const m = await c.call('PUT', `/cm/merchants/${MERCHANT_A1}/rules/rdr`, as('partner.admin'), {
      rules: [rules[0]],
    });
    expect(m.status).toBe(200);
    expect(
      (await c.call('GET', `/cm/merchants/${MERCHANT_A1}/rules`, as('merchant.user'))).body.data,
    ).toEqual([rules[0]]);
  });

  const bad: [string, unknown[], string][] = [
    ['missing value', [{ subject_id: 1, operator_id: 2, value: ' ' }], `rules[0]: ${FIELD_REQUIRED}`],
    ['missing operator', [{ subject_id: 1, operator_id: null, value: 'x' }], `rules[0]: ${FIELD_REQUIRED}`],
    ['missing subject', [{ subject_id: null, operator_id: 2, value: 'x' }], `rules[0]: ${FIELD_REQUIRED}`],
    [
      'unknown subject',
      [{ subject_id: 99, operator_id: 2, value: 'x' }],
      'rules[0].subject_id: unknown attribute 99.',
    ],
    [
      'negative amount',
      [{ subject_id: 3, operator_id: 3, value: '-5' }],
      'rules[0].value: Transaction Amount must be a number like 1,234.56 (no negatives).',
    ],
    [
      'three decimals',
      [{ subject_id: 3, operator_id: 3, value: '5.123' }],
      'rules[0].value: Transaction Amount must be a number like 1,234.56 (no negatives).',
    ],
    [
      'bad date',
      [{ subject_id: 2, operator_id: 2, value: '2026-02-30' }],
      'rules[0].value: Transaction Date must be a date yyyy-mm-dd.',
    ],
    [
      'Contains on a date',
      [{ subject_id: 2, operator_id: 1, value: '2026-02-01' }],
      'rules[0].operator_id: operator 1 does not apply to Transaction Date.',
    ],
    [
      'more rows than subjects',
      Array.from({ length: 8 }, () => ({ subject_id: 1, operator_id: 2, value: '4' })),
      'rules: at most 7 conditions (one per attribute).',
    ],
  ];
  it.each(bad)('refuses %s and keeps the saved rules', async (_n, rules, message) => {
    const id = await newMid(MERCHANT_A1, true);
    const keep = [{ subject_id: 5, operator_id: 2, value: 'P-1' }];
    await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('admin'), { rules: keep });
    const r = await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('admin'), { rules });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect((await c.call('GET', `/cm/mids/${id}/rules`, as('admin'))).body.data).toEqual(keep);
  });

  it('needs a pending or active verifi_rdr deflector, EDIT_RDR, a writable user and scope', async () => {
    const plain = await newMid(MERCHANT_A1, false);
    const rules = [{ subject_id: 1, operator_id: 2, value: '411111' }];
    const off = await c.call('PUT', `/cm/mids/${plain}/rules/rdr`, as('admin'), { rules });
    expect(off.status).toBe(400);
    expect(off.body.message).toBe('RDR rules need an active or pending Verifi RDR deflector.');
    const id = await newMid(MERCHANT_A1, true);
    expect((await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('readonly'), { rules })).status).toBe(403);
    expect((await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('merchant.user'), { rules })).status).toBe(
      403,
    );
    expect((await c.call('PUT', `/cm/mids/${id}/rules/rdr`, as('partner.user'), { rules })).status).toBe(403);
    const other = await newMid(PARTNER_B, true);
    expect((await c.call('PUT', `/cm/mids/${other}/rules/rdr`, as('partner.admin'), { rules })).status).toBe(
      404,
    );
    expect((await c.call('GET', `/cm/mids/${other}/rules`, as('partner.admin'))).status).toBe(404);
    expect((await c.call('GET', `/cm/merchants/${PARTNER_B}/rules`, as('partner.admin'))).status).toBe(404);
    const { rows } = await c.t.db.query(`select count(*)::int as n from cases.rdr_rules where mid_id = $1`, [
      id,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });
});
