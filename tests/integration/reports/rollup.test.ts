import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaseApp, type CaseApp } from '../case/case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

/** Per-MID totals of the rollup against the same totals computed from the case rows. */
async function mismatches(tenant: string): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `with r as (
       select mid_id, ref, sum(n)::int as n, sum(amount) as amount, sum(v4)::int as won, sum(s1)::int as s1, sum(c9)::int as rfi
       from cases.report_daily where tenant_id = $1 group by 1, 2
     ),
     c as (
       select c.mid_id, v.ref, count(*)::int as n, sum(c.dispute_amt) as amount,
         count(*) filter (where c.verdict_id = 4)::int as won, count(*) filter (where c.status_group_id = 1)::int as s1,
         count(*) filter (where c.cycle_id = 9)::int as rfi
       from cases.cases c cross join lateral (values (1, c.date_post), (2, c.date_trans)) v(ref, day)
       where c.tenant_id = $1 and v.day is not null group by 1, 2
     )
     select count(*)::int as n from r full join c using (mid_id, ref)
     where (r.n, r.amount, r.won, r.s1, r.rfi) is distinct from (c.n, c.amount, c.won, c.s1, c.rfi)
       and coalesce(r.n, 0) + coalesce(c.n, 0) > 0`,
    [tenant],
  );
  return rows[0]!.n;
}

describe('report rollup', () => {
  it('matches the seeded cases and knows the issuer country of every seeded BIN', async () => {
    expect(await mismatches('acme')).toBe(0);
    expect(await mismatches('northbank')).toBe(0);
    const { rows } = await c.t.db.query<{ unknown: number; total: number }>(
      `select coalesce(sum(n) filter (where location = 0), 0)::int as unknown, sum(n)::int as total
       from cases.report_daily where tenant_id = 'acme' and ref = 1`,
    );
    expect(rows[0]!.total).toBeGreaterThan(1000);
    expect(rows[0]!.unknown).toBe(0);
  });

  it('follows inserts, updates and deletes of cases', async () => {
    const db = c.t.db;
    await db.query(
      `update cases.cases set status_id = 10, verdict_id = 4 where id in (
         select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 40)`,
    );
    await db.query(
      `update cases.cases set dispute_amt = dispute_amt + 1, date_post = date_post - 1
       where id in (select id from cases.cases where tenant_id = 'acme' order by id desc limit 25)`,
    );
    await db.query(`update cases.cases set comments = 'seen' where tenant_id = 'acme' and id % 50 = 0`);
    const made = await db.query<{ id: string }>(
      `insert into cases.cases (tenant_id, merchant_id, mid_id, case_no, cycle_id, card_type_id, cc_bin, reason_code_id,
         is_fraud, date_post, date_due, date_trans, dispute_amt, dispute_currency_id, status_id, status_group_id, verdict_id)
       select tenant_id, merchant_id, mid_id, 'RPT-1', 1, 1, '499999', 104, true, current_date, current_date + 30,
         current_date - 5, 12.34, 1, 1, 1, 3
       from cases.cases where tenant_id = 'acme' order by id limit 1 returning id`,
    );
    expect(await mismatches('acme')).toBe(0);
    await db.query(`delete from cases.cases where id = $1`, [made.rows[0]!.id]);
    expect(await mismatches('acme')).toBe(0);
  });

  it('has daily sales for every MID, above the chargebacks of each month', async () => {
    const { rows } = await c.t.db.query<{ mids: number; with_sales: number; worst: number }>(
      `select (select count(*) from cases.mids where tenant_id = 'acme')::int as mids,
         (select count(distinct mid_id) from cases.transactions_daily where tenant_id = 'acme')::int as with_sales,
         (select max(r.cb::float8 / t.n) from
            (select date_trunc('month', day) as m, sum(n) as cb from cases.report_daily
             where tenant_id = 'acme' and ref = 2 group by 1) r
            join (select date_trunc('month', day) as m, sum(trans_count) as n from cases.transactions_daily
             where tenant_id = 'acme' group by 1) t using (m)) as worst`,
    );
    expect(rows[0]!.with_sales).toBe(rows[0]!.mids);
    expect(rows[0]!.worst).toBeLessThan(0.05);
  });
});
