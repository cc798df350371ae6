import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { InternalContext } from '@portal/contracts';
import { contextWithoutUser } from '@portal/core';
import { listCases } from '../../../services/case/src/cases/case-repository';
import { demoCtx, startCaseApp, type CaseApp, type Ctx } from './case-app';

/**
 * The three ways a page of cases is read (filtered first, from the sort's index, and for labels of a
 * lookup one lookup row at a time) give the order of the plain SQL sort: label, lookup row, case id.
 * The demo tenant is small enough to be filtered first, so the other two are forced here.
 */
let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const LABEL_SORTS = {
  status_group: ['sg.name', 'c.status_group_id', 'join cases.status_groups sg on sg.id = c.status_group_id'],
  verdict: ['v.name', 'c.verdict_id', 'join cases.verdicts v on v.id = c.verdict_id'],
  cc_type: ['ct.name', 'c.card_type_id', 'join cases.card_types ct on ct.id = c.card_type_id'],
  reason_code: ['rc.code', 'c.reason_code_id', 'join cases.reason_codes rc on rc.id = c.reason_code_id'],
  merchant_name: ['m.business_name', 'c.merchant_id', 'join cases.merchants m on m.id = c.merchant_id'],
  mid: ['mi.mid', 'c.mid_id', 'join cases.mids mi on mi.id = c.mid_id'],
  mid_alias: ['mi.alias', 'c.mid_id', 'join cases.mids mi on mi.id = c.mid_id'],
  order_id: ['c.order_id', null, ''],
  case_no: ['c.case_no', null, ''],
  assigned_user: ['c.assigned_username', null, ''],
} as const;

const context = (ctx: Ctx): InternalContext => ({
  ...contextWithoutUser('acme', randomUUID(), 'system'),
  ...ctx,
  exp: Math.floor(Date.now() / 1000) + 60,
});

it('label and column sorts page in the SQL order whichever way the page is read', async () => {
  const admin = context(demoCtx('acme', 'admin'));
  const { rows: totals } = await c.t.db.query<{ n: number; new: number }>(
    `select count(*)::int as n, count(*) filter (where status_group_id = 1)::int as new
     from cases.cases where tenant_id = 'acme'`,
  );
  const { n, new: newCases } = totals[0]!;
  for (const [column, [expr, tie, join]] of Object.entries(LABEL_SORTS)) {
    for (const order of ['asc', 'desc'] as const) {
      const nulls = order === 'asc' ? 'nulls last' : 'nulls first';
      const keys = [expr, ...(tie ? [tie] : []), 'c.id'].map((k) => `${k} ${order} ${nulls}`).join(', ');
      for (const [where, query, count] of [
        ['true', {}, n],
        ['c.status_group_id = 1', { status_group_id: '1' }, newCases],
      ] as const) {
        for (const start of [0, 40, count - 45]) {
          const { rows } = await c.t.db.query<{ id: string }>(
            `select c.id from cases.cases c ${join} where c.tenant_id = 'acme' and ${where}
             order by ${keys} offset ${start} limit 30`,
          );
          const expected = rows.map((r) => Number(r.id));
          for (const filterFirstRows of [0, 1_000_000]) {
            const page = await listCases(
              c.t.db,
              admin,
              { sort_by: column as never, sort_order: order, start, limit: 30, ...query },
              { filterFirstRows },
            );
            expect(
              page.data.map((r) => r.id),
              `${column} ${order} start ${start} ${where} filter first ${filterFirstRows > 0}`,
            ).toEqual(expected);
          }
        }
      }
    }
  }
}, 180_000); // 216 lists and 108 reference queries in turn: 30 s is too short on a loaded machine

it('a range of one date sorted by another pages in the SQL order, filtered first or not', async () => {
  const admin = context(demoCtx('acme', 'admin'));
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const column of ['date_due', 'date_trans', 'date_created'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      const nulls = order === 'asc' ? 'nulls last' : 'nulls first';
      const { rows } = await c.t.db.query<{ id: string }>(
        `select c.id from cases.cases c where c.tenant_id = 'acme' and c.date_post between $1::date and $2::date
         order by c.${column} ${order} ${nulls}, c.id ${order} offset 40 limit 30`,
        [day(-365), day(0)],
      );
      for (const filterFirstRows of [0, 1_000_000]) {
        const page = await listCases(
          c.t.db,
          admin,
          { sort_by: column, sort_order: order, start: 40, limit: 30, date_range: `${day(-365)}|${day(0)}` },
          { filterFirstRows },
        );
        expect(
          page.data.map((r) => r.id),
          `${column} ${order} ${filterFirstRows}`,
        ).toEqual(rows.map((r) => Number(r.id)));
      }
    }
  }
});
