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

/**
 * Rows of the monthly rollups (migrations 030 and 042, the latter by reason code, card type and location) that
 * differ from the same months summed from their sources.
 */
async function monthlyMismatches(tenant: string): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `with rm as (select ref, month, merchant_id, mid_id, currency_id, processor_id, n, amount,
                   (s1, s2, s3, s4, s5, v4, v5, represented, won_amount, b1, b6, span_days, c9, recovered, disputed) as counters
                 from cases.report_monthly where tenant_id = $1 and n <> 0),
     rd as (select ref, date_trunc('month', day)::date as month, merchant_id, mid_id, currency_id, processor_id,
              sum(n)::int as n, sum(amount) as amount,
              (sum(s1)::int, sum(s2)::int, sum(s3)::int, sum(s4)::int, sum(s5)::int, sum(v4)::int, sum(v5)::int,
               sum(represented)::int, sum(won_amount), sum(b1)::int, sum(b6)::int, sum(span_days)::bigint,
               sum(c9)::int, sum(recovered), sum(disputed)) as counters
            from cases.report_daily where tenant_id = $1 group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0),
     rk as (select ref, month, dim, key, sum(n)::int as n, sum(amount) as amount,
              (sum(s1)::int, sum(s5)::int, sum(v4)::int, sum(v5)::int, sum(represented)::int, sum(won_amount),
               sum(b1)::int, sum(b6)::int, sum(span_days)::bigint, sum(recovered), sum(lost), sum(fees),
               sum(unrated)::int, sum(disputed)) as counters
            from cases.report_monthly_key_all where tenant_id = $1 group by 1, 2, 3, 4 having sum(n) <> 0),
     rdk as (select d.ref, date_trunc('month', d.day)::date as month, k.dim, k.key, sum(d.n)::int as n,
               sum(d.amount) as amount,
               (sum(d.s1)::int, sum(d.s5)::int, sum(d.v4)::int, sum(d.v5)::int, sum(d.represented)::int,
                sum(d.won_amount), sum(d.b1)::int, sum(d.b6)::int, sum(d.span_days)::bigint, sum(d.recovered),
                sum(d.lost), sum(d.fees), sum(d.unrated)::int, sum(d.disputed)) as counters
             from cases.report_daily d
             cross join lateral (values (1, d.reason_code_id), (2, d.card_type_id::int), (3, d.location::int)) k(dim, key)
             where d.tenant_id = $1 group by 1, 2, 3, 4 having sum(d.n) <> 0),
     tm as (select month, mid_id, currency_id, trans_count::bigint as n, trans_amount as amount
            from cases.transactions_monthly where tenant_id = $1 and trans_count <> 0),
     td as (select date_trunc('month', day)::date as month, mid_id, currency_id, sum(trans_count)::bigint as n,
              sum(trans_amount) as amount
            from cases.transactions_daily where tenant_id = $1 group by 1, 2, 3 having sum(trans_count) <> 0),
     am as (select month, merchant_id, descriptor_id, source_id, currency_id, n from cases.alert_monthly
            where tenant_id = $1 and n <> 0),
     ad as (select date_trunc('month', alert_date at time zone 'UTC')::date as month, merchant_id, descriptor_id,
              source_id, currency_id, count(*)::int as n
            from cases.alerts where tenant_id = $1 group by 1, 2, 3, 4, 5)
     select (select count(*) from rm full join rd using (ref, month, merchant_id, mid_id, currency_id, processor_id)
             where (rm.n, rm.amount, rm.counters::text) is distinct from (rd.n, rd.amount, rd.counters::text))
          + (select count(*) from rk full join rdk using (ref, month, dim, key)
             where (rk.n, rk.amount, rk.counters::text) is distinct from (rdk.n, rdk.amount, rdk.counters::text))
          + (select count(*) from tm full join td using (month, mid_id, currency_id)
             where (tm.n, tm.amount) is distinct from (td.n, td.amount))
          + (select count(*) from am full join ad using (month, merchant_id, descriptor_id, source_id, currency_id)
             where am.n is distinct from ad.n) as n`,
    [tenant],
  );
  return Number(rows[0]!.n);
}

/** Rows of the MID rollups (migration 038) that differ from the same MIDs, days and months counted from the cases. */
async function midMismatches(tenant: string): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `with k as (
       select date_post as day, merchant_id, mid_id, count(*)::int as n, count(*) filter (where is_fraud)::int as fraud,
         count(*) filter (where status_id in (3, 6, 7, 8, 9, 10) or verdict_id = 4)::int as defended
       from cases.cases where tenant_id = $1 group by 1, 2, 3
     ),
     km as (select date_trunc('month', day)::date as month, merchant_id, mid_id, sum(n)::int as n,
              sum(fraud)::int as fraud, sum(defended)::int as defended from k group by 1, 2, 3),
     d as (select * from cases.mid_daily where tenant_id = $1 and n <> 0),
     m as (select * from cases.mid_monthly where tenant_id = $1 and n <> 0)
     select (select count(*) from d full join k using (day, merchant_id, mid_id)
             where (d.n, d.fraud, d.defended) is distinct from (k.n, k.fraud, k.defended))
          + (select count(*) from m full join km using (month, merchant_id, mid_id)
             where (m.n, m.fraud, m.defended) is distinct from (km.n, km.fraud, km.defended)) as n`,
    [tenant],
  );
  return Number(rows[0]!.n);
}

/** Cases whose repeat_card flag (migration 031) disagrees with the count of their card's chargebacks. */
async function repeatMismatches(tenant: string): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `select count(*)::int as n from cases.cases c
     left join (select merchant_id, cc_bin, cc_last_four, count(*) as n from cases.cases where tenant_id = $1
                group by 1, 2, 3) k using (merchant_id, cc_bin, cc_last_four)
     where c.tenant_id = $1 and c.repeat_card is distinct from coalesce(k.n > 1, false)`,
    [tenant],
  );
  return rows[0]!.n;
}

describe('report rollup', () => {
  it('matches the seeded cases and knows the issuer country of every seeded BIN', async () => {
    expect(await mismatches('acme')).toBe(0);
    expect(await mismatches('northbank')).toBe(0);
    expect(await monthlyMismatches('acme')).toBe(0);
    expect(await monthlyMismatches('northbank')).toBe(0);
    expect(await repeatMismatches('acme')).toBe(0);
    expect(await midMismatches('acme')).toBe(0);
    expect(await midMismatches('northbank')).toBe(0);
    const { rows } = await c.t.db.query<{ unknown: number; total: number }>(
      `select coalesce(sum(n) filter (where location = 0), 0)::int as unknown, sum(n)::int as total
       from cases.report_daily where tenant_id = 'acme' and ref = 1`,
    );
    expect(rows[0]!.total).toBeGreaterThan(1000);
    expect(rows[0]!.unknown).toBe(0);
  });

  it('writers only append to the whole-tenant key rollup: an open write holds no row another writer needs', async () => {
    const db = c.t.db;
    // Two cases of one post month and card type, of two merchants: before, both writers updated that month's
    // card type and location rows of the whole tenant, and the second waited for the first to commit.
    const { rows } = await db.query<{ x: string; y: string }>(
      `select min(id) as x, max(id) as y from (
         select distinct on (merchant_id) id, merchant_id from cases.cases
         where tenant_id = 'acme' and card_type_id = 1 and date_post >= date_trunc('month', current_date - 40)
           and date_post < date_trunc('month', current_date - 40) + interval '1 month'
         order by merchant_id, id limit 2) t`,
    );
    const { x, y } = rows[0]!;
    expect(x).not.toBe(y);
    let updated!: () => void;
    let release!: () => void;
    const firstUpdated = new Promise<void>((r) => (updated = r));
    const held = new Promise<void>((r) => (release = r));
    const first = db.transaction(async (tx) => {
      await tx.query(`update cases.cases set verdict_id = 4, status_id = 10 where id = $1`, [x]);
      updated();
      await held;
    });
    await firstUpdated;
    try {
      await db.transaction(async (tx) => {
        await tx.query(`set local lock_timeout = 2000`);
        await tx.query(`update cases.cases set verdict_id = 5, status_id = 10 where id = $1`, [y]);
      });
    } finally {
      release();
      await first;
    }
    expect(await monthlyMismatches('acme')).toBe(0);
    // The fold moves every committed change into its row; the sums stay.
    await db.query('select cases.report_monthly_key_fold()');
    const left = await db.query(
      `select 1 from cases.report_monthly_key_delta where tenant_id = 'acme' limit 1`,
    );
    expect(left.rowCount).toBe(0);
    expect(await monthlyMismatches('acme')).toBe(0);
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
    expect(await midMismatches('acme')).toBe(0);
    await db.query(`delete from cases.cases where id = $1`, [made.rows[0]!.id]);
    expect(await mismatches('acme')).toBe(0);
    expect(await monthlyMismatches('acme')).toBe(0);
    expect(await midMismatches('acme')).toBe(0);
  });

  it("stays exact when one connection reuses the triggers' cached plans, then writes a large batch", async () => {
    // One transaction: one connection, so the rollup triggers run their cached static plans (migration 044)
    // for every single-case write after the first, over cases of other days, merchants and groups; the
    // 60-case statement after them is planned afresh.
    await c.t.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' order by random() limit 30`,
      );
      for (const [i, { id }] of rows.entries())
        await tx.query(
          `update cases.cases set status_id = case when status_id = 1 then 5 else 1 end, verdict_id = $2,
             date_post = date_post - $3::int, cc_last_four = case when $3::int = 2 then '1111' else cc_last_four end
           where id = $1`,
          [id, (i % 6) + 1, i % 3],
        );
      await tx.query(
        `update cases.cases set verdict_id = 4, status_id = 10 where id in (
           select id from cases.cases where tenant_id = 'acme' and status_id <> 10 order by id desc limit 60)`,
      );
    });
    expect(await mismatches('acme')).toBe(0);
    expect(await monthlyMismatches('acme')).toBe(0);
    expect(await midMismatches('acme')).toBe(0);
    expect(await repeatMismatches('acme')).toBe(0);
  });

  it("runs the rollup generators' current SQL: a changed generator without compile_rollup_triggers() fails here", async () => {
    // The trigger bodies are written from the *_sql generators (migration 044); a migration that changes a
    // generator must end with `select cases.compile_rollup_triggers()`, or writes would keep the old SQL.
    const { rows } = await c.t.db.query<{ name: string; current: boolean }>(
      `select f.name, position(f.statement in p.prosrc) > 0 as current
       from (values ('report_daily_apply', cases.report_daily_sql('select 1 as sign, * from new_rows')),
                    ('report_monthly_follow', cases.report_monthly_key_sql('select -1 as sign, * from old_rows')),
                    ('mid_activity_apply', cases.mid_activity_sql('select 1 as sign, * from new_rows', 'month')),
                    ('card_chargebacks_apply', cases.card_chargebacks_sql('select -1 as sign, * from old_rows')),
                    ('alert_monthly_apply', cases.alert_monthly_sql('select 1 as sign, * from new_rows')),
                    ('transactions_monthly_apply', cases.transactions_monthly_sql('select 1 as sign, * from new_rows')))
              f(name, statement)
       join pg_proc p on p.proname = f.name and p.pronamespace = 'cases'::regnamespace
       order by 1`,
    );
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => !r.current)).toEqual([]);
  });

  it('flags the cases of a card with more than one chargeback at a merchant, and unflags them', async () => {
    const db = c.t.db;
    const [a, b] = (
      await db.query<{ id: string; merchant_id: string }>(
        `select id, merchant_id from cases.cases c where tenant_id = 'acme' and not repeat_card and cc_bin is not null
           and cc_last_four is not null and exists (select 1 from cases.cases x where x.tenant_id = 'acme'
             and x.merchant_id = c.merchant_id and x.id <> c.id and not x.repeat_card and x.cc_bin is not null)
         order by merchant_id, id limit 2`,
      )
    ).rows;
    // b takes a's card: both are flagged; b moves to a new card: neither is.
    await db.query(
      `update cases.cases set merchant_id = $2, cc_bin = (select cc_bin from cases.cases where id = $1),
         cc_last_four = (select cc_last_four from cases.cases where id = $1) where id = $3`,
      [a!.id, a!.merchant_id, b!.id],
    );
    const flags = async () =>
      (
        await db.query<{ repeat_card: boolean }>(
          'select repeat_card from cases.cases where id = any($1::bigint[]) order by id',
          [[a!.id, b!.id]],
        )
      ).rows.map((r) => r.repeat_card);
    expect(await flags()).toEqual([true, true]);
    expect(await repeatMismatches('acme')).toBe(0);
    await db.query(`update cases.cases set cc_last_four = '0000', cc_bin = '400000' where id = $1`, [b!.id]);
    expect(await flags()).toEqual([false, false]);
    expect(await repeatMismatches('acme')).toBe(0);
  });

  it('keeps the monthly rollups of sales and alerts with their rows', async () => {
    const db = c.t.db;
    // A settlement correction moves sales to the day before (across a month start for some), and one is removed.
    await db.query(
      `update cases.transactions_daily set day = day - 1, trans_count = trans_count + 3, trans_amount = trans_amount + 9.5
       where (tenant_id, day, mid_id, currency_id, card_type_id) in (
         select tenant_id, day, mid_id, currency_id, card_type_id from cases.transactions_daily
         where tenant_id = 'acme' and extract(day from day) = 1 order by mid_id limit 5)
         and not exists (select 1 from cases.transactions_daily x where x.tenant_id = 'acme' and x.day = transactions_daily.day - 1
           and x.mid_id = transactions_daily.mid_id and x.currency_id = transactions_daily.currency_id
           and x.card_type_id = transactions_daily.card_type_id)`,
    );
    await db.query(
      `delete from cases.transactions_daily where (tenant_id, day, mid_id) in (
         select tenant_id, day, mid_id from cases.transactions_daily where tenant_id = 'acme' order by day desc limit 3)`,
    );
    // Outcomes change nothing monthly; a moved alert date and a new descriptor do; one alert goes.
    await db.query(
      `update cases.alerts set outcome_id = 1, completed = true where id in (
         select id from cases.alerts where tenant_id = 'acme' and not completed order by id limit 30)`,
    );
    await db.query(
      `update cases.alerts set alert_date = alert_date - interval '20 days' where id in (
         select id from cases.alerts where tenant_id = 'acme' order by id desc limit 30)`,
    );
    await db.query(
      `update cases.alerts a set descriptor_id = (select id from cases.alert_descriptors d where d.tenant_id = 'acme'
         and d.id <> a.descriptor_id order by id limit 1)
       where id in (select id from cases.alerts where tenant_id = 'acme' order by id limit 10)`,
    );
    await db.query(
      `delete from cases.alerts a where id = (select id from cases.alerts x where tenant_id = 'acme'
         and not exists (select 1 from cases.alert_history h where h.alert_id = x.id) order by id limit 1)`,
    );
    expect(await monthlyMismatches('acme')).toBe(0);
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
