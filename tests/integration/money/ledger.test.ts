import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { syncMoneySettings } from '../../../services/case/src/money/money-settings';
import { parseCsv } from '../../support/csv';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/**
 * The money ledger (issue 33 part 1, migration 040) on real Postgres: every case's money against the rules
 * computed here from its base columns, the rates and the fee table; the rollups against the cases, both
 * ways, per month, reason code and MID, after verdict, amount, cycle and currency changes; the rate upload;
 * the scope of the tile and the section; the CSV export.
 */
let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const nbAdmin = demoCtx('northbank', 'admin');
const merchantAdmin = demoCtx('acme', 'merchant.admin');
const A1 = demoMerchantId(ACME, 'merchantA1');

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await c.t.db.query<T>(sql, params)).rows;
const num = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;

/**
 * Cases whose money columns differ from the rules (migration 040's header) computed independently here:
 * newest rate on or before the post date (1 in the reporting currency), recovered/lost by verdict, fees
 * of the network and cycle with the loss fee on a Loss.
 */
async function caseMismatches(tenant: string): Promise<number> {
  const [r] = await rows<{ n: number }>(
    `with s as (select coalesce((select reporting_currency_id from cases.money_settings where tenant_id = $1), 1) as rep),
     k as (
       select c.*,
         case when c.dispute_currency_id = s.rep then 1 else
           (select e.rate_to_reporting from cases.exchange_rates e where e.tenant_id = c.tenant_id
             and e.currency_id = c.dispute_currency_id and e.day <= c.date_post order by e.day desc limit 1) end as rate,
         case when c.verdict_id = 4 then least(coalesce(c.recovered_amt, c.dispute_amt), c.dispute_amt) else 0 end as rec,
         coalesce((select f.case_fee + case when c.verdict_id = 5 then f.loss_fee else 0 end from cases.money_fees f
           where f.tenant_id = c.tenant_id and f.card_type_id = c.card_type_id and f.cycle_id = c.cycle_id), 0) as fee
       from cases.cases c cross join s where c.tenant_id = $1
     )
     select count(*)::int as n from k
     where (k.money_rate, k.money_recovered, k.money_lost, k.rep_fees, k.rep_recovered, k.rep_lost, k.rep_disputed)
       is distinct from (k.rate, k.rec, case when k.verdict_id in (1, 2, 4, 5) then k.dispute_amt - k.rec else 0 end,
         k.fee, round(k.rec * k.rate, 2),
         round(case when k.verdict_id in (1, 2, 4, 5) then k.dispute_amt - k.rec else 0 end * k.rate, 2),
         round(k.dispute_amt * k.rate, 2))`,
    [tenant],
  );
  return r!.n;
}

/**
 * Groups of the rollups whose money (with the converted disputed amount of migration 043) differs from the
 * cases' (and the reverse: a full join), by post month, reason code and MID, from report_daily,
 * report_monthly and report_monthly_key.
 */
async function rollupMismatches(tenant: string): Promise<number> {
  const [r] = await rows<{ n: string }>(
    `with k as (
       select date_trunc('month', date_post)::date as month, reason_code_id, mid_id,
         sum(coalesce(rep_recovered, 0)) as rec, sum(coalesce(rep_lost, 0)) as lost,
         sum(case when money_rate is not null then rep_fees else 0 end) as fees,
         count(*) filter (where money_rate is null)::int as unrated, sum(coalesce(rep_disputed, 0)) as disp
       from cases.cases where tenant_id = $1 group by 1, 2, 3
     ),
     d as (select date_trunc('month', day)::date as month, reason_code_id, mid_id, sum(recovered) as rec,
             sum(lost) as lost, sum(fees) as fees, sum(unrated)::int as unrated, sum(disputed) as disp
           from cases.report_daily where tenant_id = $1 and ref = 1 group by 1, 2, 3),
     km as (select month, mid_id, sum(rec) as rec, sum(lost) as lost, sum(fees) as fees, sum(unrated)::int as unrated,
              sum(disp) as disp
            from k group by 1, 2),
     m as (select month, mid_id, sum(recovered) as rec, sum(lost) as lost, sum(fees) as fees, sum(unrated)::int as unrated,
             sum(disputed) as disp
           from cases.report_monthly where tenant_id = $1 and ref = 1 group by 1, 2),
     kr as (select reason_code_id, sum(rec) as rec, sum(lost) as lost, sum(fees) as fees, sum(disp) as disp
            from k group by 1),
     dr as (select reason_code_id, sum(rec) as rec, sum(lost) as lost, sum(fees) as fees, sum(disp) as disp
            from d group by 1),
     -- 043: the whole tenant's months by reason code (report_monthly_key and its unfolded deltas).
     kk as (select month, reason_code_id, sum(rec) as rec, sum(disp) as disp from k group by 1, 2),
     mk as (select month, key as reason_code_id, sum(recovered) as rec, sum(disputed) as disp
            from cases.report_monthly_key_all where tenant_id = $1 and ref = 1 and dim = 1 group by 1, 2)
     select (select count(*) from k full join d using (month, reason_code_id, mid_id)
             where (coalesce(k.rec, 0), coalesce(k.lost, 0), coalesce(k.fees, 0), coalesce(k.unrated, 0),
                    coalesce(k.disp, 0))
               is distinct from (coalesce(d.rec, 0), coalesce(d.lost, 0), coalesce(d.fees, 0), coalesce(d.unrated, 0),
                    coalesce(d.disp, 0)))
          + (select count(*) from km full join m using (month, mid_id)
             where (coalesce(km.rec, 0), coalesce(km.lost, 0), coalesce(km.fees, 0), coalesce(km.unrated, 0),
                    coalesce(km.disp, 0))
               is distinct from (coalesce(m.rec, 0), coalesce(m.lost, 0), coalesce(m.fees, 0), coalesce(m.unrated, 0),
                    coalesce(m.disp, 0)))
          + (select count(*) from kr full join dr using (reason_code_id)
             where (coalesce(kr.rec, 0), coalesce(kr.lost, 0), coalesce(kr.fees, 0), coalesce(kr.disp, 0))
               is distinct from (coalesce(dr.rec, 0), coalesce(dr.lost, 0), coalesce(dr.fees, 0), coalesce(dr.disp, 0)))
          + (select count(*) from kk full join mk using (month, reason_code_id)
             where (coalesce(kk.rec, 0), coalesce(kk.disp, 0)) is distinct from (coalesce(mk.rec, 0), coalesce(mk.disp, 0)))
            as n`,
    [tenant],
  );
  return Number(r!.n);
}

async function reconciles(tenant: string) {
  expect(await caseMismatches(tenant)).toBe(0);
  expect(await rollupMismatches(tenant)).toBe(0);
}

async function get(path: string, ctx = admin) {
  const r = await c.call('GET', path, ctx);
  expect(r.status, r.raw).toBe(200);
  return r.body;
}

/** One acme case in USD (the reporting currency) of a Visa first cycle, still pending. */
async function pendingUsdCase(): Promise<{ id: string; dispute_amt: string }> {
  const [k] = await rows<{ id: string; dispute_amt: string }>(
    `select id::text, dispute_amt from cases.cases where tenant_id = 'acme' and dispute_currency_id = 1
       and card_type_id = 1 and cycle_id = 1 and verdict_id in (3, 6) order by id limit 1`,
  );
  return k!;
}
/** A case's money columns as numbers (null: no rate). */
async function moneyOf(id: string): Promise<Record<string, number | null>> {
  const [r] = await rows<Record<string, unknown>>(
    `select money_recovered, money_lost, rep_fees, rep_recovered, rep_lost, money_rate from cases.cases where id = $1`,
    [id],
  );
  return Object.fromEntries(Object.entries(r!).map(([k, v]) => [k, v === null ? null : Number(v)]));
}

describe('money ledger', () => {
  it('prices every seeded case by the rules and the rollups sum them, both tenants', async () => {
    const settings = await rows<{ tenant_id: string; code: string; fees: number }>(
      `select s.tenant_id, c.code, (select count(*)::int from cases.money_fees f where f.tenant_id = s.tenant_id) as fees
       from cases.money_settings s join cases.currencies c on c.id = s.reporting_currency_id order by 1`,
    );
    // From config/tenants: acme reports in USD, northbank in EUR, each with its fee lines.
    expect(settings).toEqual([
      { tenant_id: 'acme', code: 'USD', fees: 10 },
      { tenant_id: 'northbank', code: 'EUR', fees: 6 },
    ]);
    const [seeded] = await rows<{ rated: number; foreign: number; partial: number; won: number }>(
      `select count(*) filter (where money_rate is not null)::int as rated,
         count(*) filter (where dispute_currency_id <> 2)::int as foreign,
         count(*) filter (where recovered_amt < dispute_amt and verdict_id = 4)::int as partial,
         count(*) filter (where verdict_id = 4)::int as won
       from cases.cases where tenant_id = 'northbank'`,
    );
    // A year and more of seeded rates: every northbank case (mostly USD, reported in EUR) is converted.
    expect(seeded!.foreign).toBeGreaterThan(100);
    expect(seeded!.rated).toBeGreaterThan(seeded!.foreign);
    expect(seeded!.partial).toBeGreaterThan(0);
    expect(seeded!.partial).toBeLessThan(seeded!.won);
    await reconciles('acme');
    await reconciles('northbank');
  });

  it('follows verdict, amount, cycle changes, a won -> lost flip and a partial recovery', async () => {
    const k = await pendingUsdCase();
    const amt = Number(k.dispute_amt);
    // Pending: nothing recovered or lost, the Visa first-cycle fee of acme.yaml (0 + 15).
    expect(await moneyOf(k.id)).toMatchObject({
      money_recovered: 0,
      money_lost: 0,
      rep_fees: 15,
    });

    await c.t.db.query(`update cases.cases set verdict_id = 4 where id = $1`, [k.id]);
    expect(await moneyOf(k.id)).toMatchObject({ money_recovered: amt, money_lost: 0 });
    await reconciles('acme');

    await c.t.db.query(`update cases.cases set dispute_amt = $2 where id = $1`, [
      k.id,
      (amt + 10).toFixed(2),
    ]);
    expect(num((await moneyOf(k.id)).rep_recovered)).toBe(num(amt + 10));
    await reconciles('acme');

    // Partial: 40.00 of it came back, the rest is lost.
    await c.t.db.query(`update cases.cases set recovered_amt = 40 where id = $1`, [k.id]);
    expect(await moneyOf(k.id)).toMatchObject({
      money_recovered: 40,
      money_lost: num(amt + 10 - 40),
    });
    await reconciles('acme');

    // Won -> lost on a second cycle: everything lost, the Visa second-cycle fee plus the arbitration loss fee.
    await c.t.db.query(`update cases.cases set verdict_id = 5, cycle_id = 2 where id = $1`, [k.id]);
    expect(await moneyOf(k.id)).toMatchObject({
      money_recovered: 0,
      money_lost: num(amt + 10),
      rep_fees: 515,
    });
    await reconciles('acme');

    // A bulk statement of many cases (the bulk close jobs) is one trigger run.
    await c.t.db.query(
      `update cases.cases set verdict_id = 4 where id in (
         select id from cases.cases where tenant_id = 'acme' and verdict_id in (3, 6) order by id limit 50)`,
    );
    await reconciles('acme');
  });

  it('a changed fee schedule reprices the tenant and the rollups follow; the same one changes nothing', async () => {
    const settings = {
      reportingCurrency: 'USD',
      fees: [{ card_network: 'visa' as const, cycle: 'first' as const, network_fee: 1, processor_fee: 2 }],
    };
    expect(await c.t.db.transaction((tx) => syncMoneySettings(tx, 'acme', settings))).toBe(true);
    const fees = await rows<{ visa_first: boolean; fee: number; n: number }>(
      `select card_type_id = 1 and cycle_id = 1 as visa_first, rep_fees::float8 as fee, count(*)::int as n
       from cases.cases where tenant_id = 'acme' group by 1, 2 order by 1, 2`,
    );
    expect(fees.map((f) => [f.visa_first, f.fee])).toEqual([
      [false, 0],
      [true, 3],
    ]);
    await reconciles('acme');
    expect(await c.t.db.transaction((tx) => syncMoneySettings(tx, 'acme', settings))).toBe(false);
  });

  it('a loaded rate converts the cases it applies to; a case without a rate is counted, not summed', async () => {
    const [k] = await rows<{ id: string; dispute_amt: string }>(
      `select id::text, dispute_amt from cases.cases where tenant_id = 'northbank' and dispute_currency_id = 1
         and verdict_id = 4 and recovered_amt is null order by id limit 1`,
    );
    // Posted on a day before any seeded rate: unrated.
    await c.t.db.query(`update cases.cases set date_post = '2020-01-15' where id = $1`, [k!.id]);
    expect((await moneyOf(k!.id)).money_rate).toBeNull();
    await reconciles('northbank');
    const summary = await get('/cm/money/rates', nbAdmin);
    expect(summary.reporting_currency).toBe('EUR');
    expect(summary.unrated_cases).toBeGreaterThanOrEqual(1);

    const csv = 'date,currency,rate_to_reporting\n2020-01-10,USD,0.9\n2020-01-14,usd,0.5\n2020-01-16,USD,2\n';
    const up = await c.call('POST', '/cm/money/rates', nbAdmin, { csv });
    expect(up.status, up.raw).toBe(200);
    expect(up.body).toMatchObject({ upserted: 3, unchanged: 0 });
    expect(up.body.repriced_cases).toBeGreaterThanOrEqual(1);
    // The newest rate on or before 2020-01-15: 0.5.
    const m = await moneyOf(k!.id);
    expect(m.money_rate).toBe(0.5);
    // In cents: half a cent rounds up, as Postgres round() does.
    expect(m.rep_recovered).toBe(Math.round(Math.round(Number(k!.dispute_amt) * 100) * 0.5) / 100);
    await reconciles('northbank');

    // Idempotent: the same file again changes nothing.
    const again = await c.call('POST', '/cm/money/rates', nbAdmin, { csv });
    expect(again.body).toEqual({ upserted: 0, unchanged: 3, repriced_cases: 0 });
    // A changed rate reprices.
    const changed = await c.call('POST', '/cm/money/rates', nbAdmin, {
      csv: 'date,currency,rate_to_reporting\n2020-01-14,USD,0.25\n',
    });
    expect(changed.body).toMatchObject({ upserted: 1, unchanged: 0 });
    expect((await moneyOf(k!.id)).money_rate).toBe(0.25);
    await reconciles('northbank');
    // The case's own money route: both currencies, the rate used.
    const money = await get(`/cm/cases/${k!.id}/money`, nbAdmin);
    const amt = Number(k!.dispute_amt);
    expect(money).toMatchObject({
      case_id: Number(k!.id),
      rate: 0.25,
      case_currency: { currency: 'USD', disputed: amt, recovered: amt, lost: 0 },
      reporting_currency: { currency: 'EUR', recovered: Math.round(Math.round(amt * 100) * 0.25) / 100 },
    });
    expect(money.reporting_currency.net).toBe(
      num(money.reporting_currency.recovered - money.reporting_currency.fees),
    );
    // Another tenant's case is not there.
    expect((await c.call('GET', `/cm/cases/${k!.id}/money`, admin)).status).toBe(404);
  });

  it('refuses a bad rates file with every bad row named, and changes nothing', async () => {
    const [before] = await rows<{ n: number }>(`select count(*)::int as n from cases.exchange_rates`);
    const bad = [
      'date,currency,rate_to_reporting',
      '2026-02-30,EUR,1.1',
      '2026-01-02,XYZ,1.1',
      '2026-01-03,EUR,-2',
      '2026-01-04,EUR,abc',
      '2026-01-05,USD,1',
      '2026-01-06,GBP,1.2',
      '2026-01-06,GBP,1.3',
      '2026-01-07,GBP',
    ].join('\n');
    const r = await c.call('POST', '/cm/money/rates', admin, { csv: bad });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^7 problems in the file, nothing was loaded: row 2 date: '2026-02-30'/);
    expect(r.body.data.violations.map((v: { row: number; field: string }) => `${v.row}:${v.field}`)).toEqual([
      '2:date',
      '3:currency',
      '4:rate_to_reporting',
      '5:rate_to_reporting',
      '6:currency',
      '8:row',
      '9:row',
    ]);
    const header = await c.call('POST', '/cm/money/rates', admin, {
      csv: 'day,code,rate\n2026-01-01,EUR,1.1\n',
    });
    expect(header.status).toBe(400);
    expect(header.body.message).toBe("The first line must be the header 'date,currency,rate_to_reporting'.");
    const [after] = await rows<{ n: number }>(`select count(*)::int as n from cases.exchange_rates`);
    expect(after!.n).toBe(before!.n);
    // Merchants neither see nor load rates.
    expect((await c.call('GET', '/cm/money/rates', merchantAdmin)).status).toBe(403);
    const refused = await c.call('POST', '/cm/money/rates', merchantAdmin, {
      csv: 'date,currency,rate_to_reporting\n2026-01-01,EUR,1.1\n',
    });
    expect(refused.status).toBe(403);
  });

  it('the tile and the section answer the cases of the caller scope; the CSV has the rows', async () => {
    const today = new Date();
    const month = (add: number) =>
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + add, 1)).toISOString().slice(0, 10);
    const sums = async (merchants: number[] | null) =>
      rows<{ m: string; rec: string; fees: string; n: number }>(
        `select date_trunc('month', c.date_post)::date::text as m, sum(coalesce(rep_recovered, 0)) as rec,
           sum(case when money_rate is not null then rep_fees else 0 end) as fees, count(*)::int as n
         from cases.cases c where c.tenant_id = 'acme' and c.date_post >= $1
           and ($2::bigint[] is null or c.merchant_id = any($2::bigint[]))
         group by 1 order by 1`,
        [month(-11), merchants],
      );
    const all = await sums(null);
    const tile = await get('/cm/cases/dashboard/recovered');
    expect(tile.currency).toBe('USD');
    const thisMonth = all.find((r) => r.m === month(0));
    const lastMonth = all.find((r) => r.m === month(-1))!;
    expect(tile.this_month.recovered).toBe(num(thisMonth?.rec));
    expect(tile.this_month.net).toBe(num(num(thisMonth?.rec) - num(thisMonth?.fees)));
    expect(tile.last_month.net).toBe(num(num(lastMonth.rec) - num(lastMonth.fees)));
    expect(tile.last_month.chargebacks).toBe(lastMonth.n);

    // The merchant's own subtree only, for the merchant user and for the admin's merchant switcher alike.
    const subtree = (
      await rows<{ id: string }>(
        `with recursive t as (select id from cases.merchants where id = $1
           union all select m.id from cases.merchants m join t on m.parent_id = t.id) select id::text from t`,
        [A1],
      )
    ).map((r) => Number(r.id));
    const mine = await sums(subtree);
    const merchantTile = await get('/cm/cases/dashboard/recovered', merchantAdmin);
    expect(merchantTile.last_month.recovered).toBe(num(mine.find((r) => r.m === month(-1))?.rec));
    expect(merchantTile.last_month.recovered).toBeLessThan(tile.last_month.recovered);
    expect(await get(`/cm/cases/dashboard/recovered?client_id=${A1}`)).toEqual(merchantTile);
    const outside = await c.call(
      'GET',
      `/cm/cases/dashboard/recovered?client_id=${demoMerchantId(ACME, 'merchantB1')}`,
      merchantAdmin,
    );
    expect(outside.status).toBe(400);

    const range = `date_range=${month(-11)}|${today.toISOString().slice(0, 10)}`;
    const byMonth = await get(`/cm/cases/reports/recovered-revenue?${range}&group_by=month`, merchantAdmin);
    expect(byMonth.data.map((r: { key: string; recovered: number }) => [r.key, r.recovered])).toEqual(
      mine.map((r) => [r.m, num(r.rec)]),
    );
    const [byReasonSql] = await rows<{ n: number }>(
      `select count(distinct reason_code_id)::int as n from cases.cases
       where tenant_id = 'acme' and date_post >= $1 and merchant_id = any($2::bigint[])`,
      [month(-11), subtree],
    );
    const byReason = await get(
      `/cm/cases/reports/recovered-revenue?${range}&group_by=reason_code&limit=50`,
      merchantAdmin,
    );
    expect(byReason.data).toHaveLength(Math.min(50, byReasonSql!.n));
    expect(byReason.groups).toBe(byReasonSql!.n);
    expect(byReason.total.recovered).toBe(byMonth.total.recovered);
    // The whole tenant reads other rollups (whole months by reason code, location rows for months): the same sums.
    const wholeByMonth = await get(`/cm/cases/reports/recovered-revenue?${range}&group_by=month`, admin);
    const wholeByReason = await get(
      `/cm/cases/reports/recovered-revenue?${range}&group_by=reason_code`,
      admin,
    );
    expect(wholeByReason.total).toEqual(wholeByMonth.total);
    expect(wholeByReason.data).toHaveLength(20);
    expect(wholeByReason.groups).toBeGreaterThan(20);
    const byMid = await get(
      `/cm/cases/reports/recovered-revenue?${range}&group_by=mid&limit=50`,
      merchantAdmin,
    );
    expect(byMid.total).toEqual(byMonth.total);

    const csv = await c.call(
      'GET',
      `/cm/cases/reports/recovered-revenue.csv?${range}&group_by=month`,
      merchantAdmin,
    );
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    const table = parseCsv(csv.raw.replace(/^\uFEFF/, '')).filter((r) => r.length > 1);
    expect(table[0]).toEqual([
      'Group',
      'Chargebacks',
      'Recovered (USD)',
      'Lost (USD)',
      'Fees (USD)',
      'Net Recovered (USD)',
      'Without Rate',
    ]);
    expect(table.slice(1).map((r) => [r[0], Number(r[2])])).toEqual(
      byMonth.data.map((r: { label: string; recovered: number }) => [r.label, r.recovered]),
    );
  });
});
