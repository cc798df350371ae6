import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/**
 * The money of the win rate table and the month-to-date report is the money ledger's (issue 33): in the
 * tenant's reporting currency, partial recoveries as recovered, cases without a rate counted and left out.
 * Checked against the 'Recovered revenue' section for the same range and scope, and against the cases'
 * own ledger columns, on acme cases of several currencies with a partial recovery and a case without a rate.
 */
let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const merchant = demoCtx('acme', 'merchant.admin');
const nbAdmin = demoCtx('northbank', 'admin');
const A1 = demoMerchantId(ACME, 'merchantA1');

const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await c.t.db.query<T>(sql, params)).rows;
const num = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;
const sum = <T>(list: T[], f: (r: T) => number) => num(list.reduce((s, r) => s + f(r), 0));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function get(path: string, ctx = admin) {
  const r = await c.call('GET', path, ctx);
  expect(r.status, r.raw).toBe(200);
  return r.body;
}

interface WinRow {
  key: string;
  recovered_amount: number;
  disputed_amount: number;
  unrated: number;
}
interface SectionRow {
  key: string;
  recovered: number;
}

/** The ledger's own figures of the acme cases posted in a range (of the merchant's subtree when given). */
async function ledger(from: string, to: string, merchants: number[] | null = null) {
  const [r] = await rows<Record<string, string>>(
    `select coalesce(sum(rep_recovered), 0) as recovered, coalesce(sum(rep_disputed), 0) as disputed,
       count(*) filter (where money_rate is null) as unrated,
       coalesce(sum(dispute_amt) filter (where verdict_id = 4), 0) as won_amount,
       count(distinct dispute_currency_id) filter (where verdict_id = 4) as won_currencies,
       count(*) filter (where verdict_id = 4 and recovered_amt < dispute_amt and money_rate is not null) as partial
     from cases.cases where tenant_id = 'acme' and date_post between $1 and $2
       and ($3::bigint[] is null or merchant_id = any($3::bigint[]))`,
    [from, to, merchants],
  );
  return {
    recovered: num(r!.recovered),
    disputed: num(r!.disputed),
    unrated: Number(r!.unrated),
    wonAmount: num(r!.won_amount),
    wonCurrencies: Number(r!.won_currencies),
    partial: Number(r!.partial),
  };
}

beforeAll(async () => {
  c = await startCaseApp();
  // This month's acme cases: wins and losses in USD, EUR, GBP and AUD (every rate but USD's is not 1), a
  // partial recovery in GBP, and a won case in MXN, whose rates are removed: without a rate.
  const { current } = await get('/cm/cases/reports/mtd');
  const decide = async (currency: number, verdicts: number[]) => {
    const picked = await rows<{ id: string }>(
      `select id::text from cases.cases where tenant_id = 'acme' and dispute_currency_id = $1
         and date_post between $2 and $3 and verdict_id in (3, 6) order by id limit $4`,
      [currency, current.from, current.to, verdicts.length],
    );
    expect(picked).toHaveLength(verdicts.length);
    for (const [i, k] of picked.entries())
      await c.t.db.query(`update cases.cases set verdict_id = $2, status_id = 10 where id = $1`, [
        k.id,
        verdicts[i],
      ]);
    return picked.map((k) => k.id);
  };
  await decide(1, [4, 4, 5]);
  await decide(2, [4, 5]);
  const [gbp] = await decide(3, [4, 4, 5]);
  await decide(5, [4, 4]);
  await c.t.db.query(
    `update cases.cases set recovered_amt = round(dispute_amt * 0.88, 2) - 0.01 where id = $1`,
    [gbp],
  );
  await c.t.db.query(`delete from cases.exchange_rates where tenant_id = 'acme' and currency_id = 6`);
  const [mxn] = await decide(1, [4]);
  await c.t.db.query(`update cases.cases set dispute_currency_id = 6 where id = $1`, [mxn]);
});
afterAll(async () => c.close());

describe('win rate and month to date in the reporting currency', () => {
  it('month to date: recovered is the Recovered revenue section of each period; amounts converted', async () => {
    const mtd = await get('/cm/cases/reports/mtd');
    const metric = (k: string) => mtd.metrics.find((m: { key: string }) => m.key === k);
    const cur = await ledger(mtd.current.from, mtd.current.to);
    const prev = await ledger(mtd.previous.from, mtd.previous.to);
    const section = async (p: { from: string; to: string }, ctx = admin) =>
      get(`/cm/cases/reports/recovered-revenue?date_range=${p.from}|${p.to}&group_by=month`, ctx);
    const [curSection, prevSection] = [await section(mtd.current), await section(mtd.previous)];

    expect([metric('recovered').current, metric('recovered').previous]).toEqual([
      curSection.total.recovered,
      prevSection.total.recovered,
    ]);
    expect(metric('recovered').current).toBe(cur.recovered);
    expect(metric('chargeback_amount').current).toBe(cur.disputed);
    expect(metric('chargeback_amount').previous).toBe(prev.disputed);
    expect(mtd.currency).toBe('USD');
    expect(mtd.unrated.chargebacks).toEqual({ current: cur.unrated, previous: prev.unrated });
    expect(curSection.total.unrated).toBe(cur.unrated);
    // The data tells the ledger from the old sum: several currencies won, a partial recovery, a case without a rate.
    expect(cur.wonCurrencies).toBeGreaterThanOrEqual(4);
    expect(cur.partial).toBeGreaterThanOrEqual(1);
    expect(cur.unrated).toBeGreaterThanOrEqual(1);
    expect(cur.recovered).not.toBe(cur.wonAmount);

    // The merchant's subtree: its own section.
    const subtree = (
      await rows<{ id: string }>(
        `with recursive t as (select id from cases.merchants where id = $1
           union all select m.id from cases.merchants m join t on m.parent_id = t.id) select id::text from t`,
        [A1],
      )
    ).map((r) => Number(r.id));
    const mine = await get('/cm/cases/reports/mtd', merchant);
    const mineMetric = (k: string) => mine.metrics.find((m: { key: string }) => m.key === k);
    expect(mineMetric('recovered').current).toBe((await section(mine.current, merchant)).total.recovered);
    expect(mineMetric('recovered').previous).toBe((await section(mine.previous, merchant)).total.recovered);
    expect(mineMetric('chargeback_amount').current).toBe(
      (await ledger(mine.current.from, mine.current.to, subtree)).disputed,
    );
  });

  it('win rate: the groups add up to the Recovered revenue section, per reason code too', async () => {
    for (const [from, to] of [
      [(await get('/cm/cases/reports/mtd')).current.from, day(0)],
      [day(-364), day(0)],
    ] as const) {
      const range = `date_range=${from}|${to}`;
      const section = await get(`/cm/cases/reports/recovered-revenue?${range}&group_by=month`);
      const byCard = await get(`/cm/cases/reports/win-rate?${range}&group_by=card_type&limit=50`);
      const expected = await ledger(from, to);
      expect(sum(byCard.data, (r: WinRow) => r.recovered_amount)).toBe(section.total.recovered);
      expect(sum(byCard.data, (r: WinRow) => r.recovered_amount)).toBe(expected.recovered);
      expect(sum(byCard.data, (r: WinRow) => r.disputed_amount)).toBe(expected.disputed);
      expect(sum(byCard.data, (r: WinRow) => r.unrated)).toBe(section.total.unrated);
      expect(byCard.currency).toBe('USD');

      // Each reason code's recovered amount is the section's row of that reason code.
      const byReason = await get(`/cm/cases/reports/win-rate?${range}&group_by=reason_code&limit=50`);
      const sectionByReason = await get(
        `/cm/cases/reports/recovered-revenue?${range}&group_by=reason_code&limit=50`,
      );
      const sectionRow = new Map<string, number>(
        sectionByReason.data.map((r: SectionRow) => [r.key, r.recovered]),
      );
      const compared = byReason.data.filter((r: WinRow) => sectionRow.has(r.key));
      expect(compared.length).toBeGreaterThan(0);
      for (const r of compared) expect([r.key, r.recovered_amount]).toEqual([r.key, sectionRow.get(r.key)]);
    }

    // A merchant's own scope: its one merchant row is its section's total.
    const range = `date_range=${day(-364)}|${day(0)}`;
    const mine = await get(`/cm/cases/reports/win-rate?${range}&group_by=merchant`, merchant);
    expect(mine.data.map((r: WinRow) => r.key)).toEqual([String(A1)]);
    const mySection = await get(`/cm/cases/reports/recovered-revenue?${range}&group_by=month`, merchant);
    expect(mine.data[0].recovered_amount).toBe(mySection.total.recovered);
    expect(mine.data[0].unrated).toBe(mySection.total.unrated);
  });

  it('a tenant reporting in EUR gets EUR amounts, the same as its section', async () => {
    const range = `date_range=${day(-364)}|${day(0)}`;
    const section = await get(`/cm/cases/reports/recovered-revenue?${range}&group_by=month`, nbAdmin);
    const win = await get(`/cm/cases/reports/win-rate?${range}&group_by=card_type&limit=50`, nbAdmin);
    expect(sum(win.data, (r: WinRow) => r.recovered_amount)).toBe(section.total.recovered);
    expect([win.currency, section.currency]).toEqual(['EUR', 'EUR']);
    const mtd = await get('/cm/cases/reports/mtd', nbAdmin);
    const current = await get(
      `/cm/cases/reports/recovered-revenue?date_range=${mtd.current.from}|${mtd.current.to}`,
      nbAdmin,
    );
    expect(mtd.metrics.find((m: { key: string }) => m.key === 'recovered').current).toBe(
      current.total.recovered,
    );
    expect(mtd.currency).toBe('EUR');
  });
});
