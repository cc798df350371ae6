import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/**
 * The /reports charts, Resultant KPI and win rate against the same figures computed here with plain SQL
 * over the base tables (cases.cases, cases.transactions_daily, cases.alerts), never over the rollup.
 */
let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const merchant = demoCtx('acme', 'merchant.admin');
const A1 = demoMerchantId(ACME, 'merchantA1');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const FROM = day(-120);
const TO = day(0);
const RANGE = `date_range=${FROM}|${TO}`;
const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await c.t.db.query<T>(sql, params)).rows;
const pct = (n: number, base: number) => (base > 0 ? Math.round((n / base) * 10_000) / 100 : 0);

/** Cases of acme posted in the range (optionally one merchant), as a SQL condition with $1, $2 (, $3). */
const POSTED = `c.tenant_id = 'acme' and c.date_post between $1 and $2`;

async function get(path: string, ctx = admin) {
  const r = await c.call('GET', path, ctx);
  expect(r.status, r.raw).toBe(200);
  return r.body;
}

async function grouped(key: string, join = '', extra = '', params: unknown[] = [FROM, TO]) {
  return rows<{ label: string; n: number }>(
    `select ${key} as label, count(*)::int as n from cases.cases c ${join}
     where ${POSTED} ${extra} group by 1 order by 2 desc, 1`,
    params,
  );
}

describe('report charts', () => {
  it('card type, reason code and platform: top slices, counts and percents of the whole selection', async () => {
    const total = (
      await rows<{ n: number }>(`select count(*)::int n from cases.cases c where ${POSTED}`, [FROM, TO])
    )[0]!.n;
    expect(total).toBeGreaterThan(100);
    const cards = await grouped('ct.name', 'join cases.card_types ct on ct.id = c.card_type_id');
    const card = await get(`/cm/cases/reports/card-type?${RANGE}`);
    expect(card.total).toBe(total);
    expect(card.data.map((r: { label: string; count: number }) => [r.label, r.count])).toEqual(
      cards.slice(0, 5).map((r) => [r.label, r.n]),
    );
    expect(card.data[0].percent).toBe(pct(cards[0]!.n, total));

    const reasons = await grouped(
      `rc.code || ' - ' || rc.description`,
      'join cases.reason_codes rc on rc.id = c.reason_code_id',
    );
    const reason = await get(`/cm/cases/reports/cb-by-reason-code?${RANGE}&limit=5`);
    expect(reason.data.map((r: { count: number }) => r.count)).toEqual(reasons.slice(0, 5).map((r) => r.n));
    expect(reason.data[0].label).toBe(reasons[0]!.label);

    const platforms = await grouped(
      `coalesce(pr.name, 'Unknown')`,
      'left join cases.processors pr on pr.id = c.processor_id',
    );
    const platform = await get(`/cm/cases/reports/cases-by-platform?${RANGE}`);
    expect(platform.data.map((r: { count: number }) => r.count)).toEqual(
      platforms.slice(0, 5).map((r) => r.n),
    );
  });

  it('a case dated after the range (tomorrow) stays out, though ranges ending today read their month whole', async () => {
    const [moved] = await rows<{ id: string; date_post: string }>(
      `select id, date_post::text from cases.cases c where ${POSTED} order by date_post desc, id limit 1`,
      [FROM, TO],
    );
    await c.t.db.query(`update cases.cases set date_post = $2 where id = $1`, [moved!.id, day(1)]);
    try {
      const total = (
        await rows<{ n: number }>(`select count(*)::int n from cases.cases c where ${POSTED}`, [FROM, TO])
      )[0]!.n;
      expect((await get(`/cm/cases/reports/card-type?${RANGE}`)).total).toBe(total);
      const reasons = await grouped('c.reason_code_id::text', '');
      const reason = await get(`/cm/cases/reports/cb-by-reason-code?${RANGE}&limit=50`);
      expect(reason.total).toBe(total);
      expect(reason.data.map((r: { count: number }) => r.count)).toEqual(
        reasons.slice(0, 50).map((r) => r.n),
      );
    } finally {
      await c.t.db.query(`update cases.cases set date_post = $2 where id = $1`, [
        moved!.id,
        moved!.date_post,
      ]);
    }
  });

  it('status totals: all time for the chargebacks list, the posted window for the report', async () => {
    const all = await get('/cm/cases/reports/cases-status-totals');
    const counts = await rows<{ id: number; n: number }>(
      `select sg.id, count(c.id)::int as n from cases.status_groups sg
       left join cases.cases c on c.status_group_id = sg.id and c.tenant_id = 'acme' group by 1 order by 1`,
    );
    expect(
      all.data.map((r: { status_group_id: number; count: number }) => [r.status_group_id, r.count]),
    ).toEqual(counts.map((r) => [r.id, r.n]));
    const windowed = await get(`/cm/cases/reports/cases-status-totals?${RANGE}`);
    const inRange = await grouped('c.status_group_id');
    for (const r of inRange)
      expect(windowed.data.find((x: { key: string }) => x.key === String(r.label)).count).toBe(r.n);
    const mine = await get(`/cm/cases/reports/cases-status-totals?client_id=${A1}`, merchant);
    expect(mine.total).toBe(
      (await rows<{ n: number }>(`select count(*)::int n from cases.cases where merchant_id = $1`, [A1]))[0]!
        .n,
    );
    // All time in one currency: from the daily rollup (the per-status counts have no currency).
    const usd = await get('/cm/cases/reports/cases-status-totals?currency_id=1');
    const usdCounts = await rows<{ id: number; n: number }>(
      `select sg.id, count(c.id)::int as n from cases.status_groups sg left join cases.cases c
         on c.status_group_id = sg.id and c.tenant_id = 'acme' and c.dispute_currency_id = 1 group by 1 order by 1`,
    );
    expect(usd.data.map((r: { count: number }) => r.count)).toEqual(usdCounts.map((r) => r.n));
    expect(usd.total).toBeLessThan(all.total);
  });

  it('verdicts, amount bands and domestic vs offshore', async () => {
    const verdicts = await grouped('v.name', 'join cases.verdicts v on v.id = c.verdict_id');
    const verdict = await get(`/cm/cases/reports/verdict?${RANGE}`);
    expect(verdict.data.map((r: { label: string; count: number }) => [r.label, r.count])).toEqual(
      verdicts.slice(0, 5).map((r) => [r.label, r.n]),
    );

    const bands = await rows<{ band: number; n: number }>(
      `select width_bucket(coalesce(c.trans_amt, c.dispute_amt), array[25, 50, 100, 250, 500]::numeric[]) + 1 as band,
         count(*)::int as n from cases.cases c where ${POSTED} group by 1`,
      [FROM, TO],
    );
    const amount = await get(`/cm/cases/reports/percent-chargebacks-by-trans-amount-range?${RANGE}`);
    for (const b of bands)
      expect(amount.data.find((r: { key: string }) => r.key === String(b.band)).count).toBe(b.n);

    const places = await grouped(
      `case when ib.country_id = m.country_id then 'Domestic' else 'Offshore' end`,
      'join cases.merchants m on m.id = c.merchant_id join cases.issuer_bins ib on ib.bin = c.cc_bin',
    );
    const location = await get(`/cm/cases/reports/location-type?${RANGE}`);
    for (const p of places)
      expect(location.data.find((r: { label: string }) => r.label === p.label).count).toBe(p.n);
  });

  it('issuer BINs, non-unique customers and card type per platform', async () => {
    const bins = await grouped('c.cc_bin', '', 'and c.cc_bin is not null');
    const issuer = await get(`/cm/cases/reports/chargebacks-by-issuer?${RANGE}&limit=10`);
    expect(issuer.data.map((r: { label: string; count: number }) => r.count)).toEqual(
      bins.slice(0, 10).map((r) => r.n),
    );
    const repeat = await rows<{ n: number; base: number }>(
      `with w as (select * from cases.cases c where ${POSTED})
       select count(*) filter (where k.n > 1)::int as n, count(*)::int as base from w
       left join (select merchant_id, cc_bin, cc_last_four, count(*) as n from w group by 1, 2, 3) k
         using (merchant_id, cc_bin, cc_last_four)`,
      [FROM, TO],
    );
    const customers = await get(`/cm/cases/reports/cb-non-unique-customers?${RANGE}`);
    const sum = (k: 'count' | 'base') =>
      customers.data.reduce((s: number, r: Record<string, number>) => s + r[k]!, 0);
    expect(sum('base')).toBe(repeat[0]!.base);
    expect(sum('count')).toBe(repeat[0]!.n);
    expect(repeat[0]!.n).toBeGreaterThan(0);

    const stacked = await get(`/cm/cases/reports/percent-chargebacks-by-processor-by-cc-type?${RANGE}`);
    const first = stacked.data[0];
    const expected = await rows<{ n: number; total: number }>(
      `select count(*) filter (where ct.name = $4)::int as n, count(*)::int as total
       from cases.cases c join cases.card_types ct on ct.id = c.card_type_id
       left join cases.processors pr on pr.id = c.processor_id where ${POSTED} and coalesce(pr.name, 'Unknown') = $3`,
      [FROM, TO, first.platform, first.card_type],
    );
    expect(first.count).toBe(expected[0]!.n);
    expect(first.percent).toBe(pct(expected[0]!.n, expected[0]!.total));
  });

  it('ratios by transaction month and week divide chargebacks by the sales of the same period', async () => {
    const month = await get(`/cm/cases/reports/cb-by-trans-month?${RANGE}`);
    const expected = await rows<{ m: string; cb: number; sales: number }>(
      `select to_char(g, 'YYYY-MM-DD') as m,
         (select count(*)::int from cases.cases c where c.tenant_id = 'acme' and date_trunc('month', c.date_trans) = g
            and c.date_trans between $1 and $2) as cb,
         (select coalesce(sum(trans_count), 0)::int from cases.transactions_daily t where t.tenant_id = 'acme'
            and date_trunc('month', t.day) = g and t.day between $1 and $2) as sales
       from generate_series(date_trunc('month', $1::date), $2::date, interval '1 month') g order by g`,
      [FROM, TO],
    );
    expect(
      month.data.map((r: { period: string; count: number; base: number }) => [r.period, r.count, r.base]),
    ).toEqual(expected.map((r) => [r.m, r.cb, r.sales]));
    for (const [i, r] of expected.entries()) expect(month.data[i].percent).toBe(pct(r.cb, r.sales));

    const week = await get(
      `/cm/cases/reports/chargeback-transaction-ratio-by-transaction-date-week?${RANGE}`,
    );
    const total = week.data.reduce((s: number, r: { count: number }) => s + r.count, 0);
    expect(total).toBe(
      (
        await rows<{ n: number }>(
          `select count(*)::int n from cases.cases c where c.tenant_id = 'acme' and c.date_trans between $1 and $2`,
          [FROM, TO],
        )
      )[0]!.n,
    );
  });

  it('average span between transaction and post date by week', async () => {
    const span = await get(`/cm/cases/reports/span-between-post-trans-date?${RANGE}`);
    const expected = await rows<{ w: string; avg: number }>(
      `select to_char(date_trunc('week', c.date_post), 'YYYY-MM-DD') as w,
         round(avg(c.date_post - c.date_trans), 2)::float8 as avg
       from cases.cases c where ${POSTED} and c.date_trans is not null group by 1`,
      [FROM, TO],
    );
    expect(expected.length).toBeGreaterThan(4);
    for (const e of expected)
      expect(span.data.find((r: { period: string }) => r.period === e.w).average).toBeCloseTo(e.avg, 2);
  });

  it('narrows by MID, currency, platform and transaction date reference', async () => {
    const [mid] = await rows<{ mid_id: number; currency: number; processor: number }>(
      `select mid_id::int, dispute_currency_id as currency, processor_id as processor from cases.cases c
       where ${POSTED} and processor_id is not null group by 1, 2, 3 order by count(*) desc limit 1`,
      [FROM, TO],
    );
    const count = async (extra: string, params: unknown[]) =>
      (
        await rows<{ n: number }>(`select count(*)::int n from cases.cases c where ${POSTED} ${extra}`, [
          FROM,
          TO,
          ...params,
        ])
      )[0]!.n;
    const byMid = await get(
      `/cm/cases/reports/card-type?${RANGE}&mid_id=${mid!.mid_id}&currency_id=${mid!.currency}`,
    );
    expect(byMid.total).toBe(
      await count('and c.mid_id = $3 and c.dispute_currency_id = $4', [mid!.mid_id, mid!.currency]),
    );
    const byPlatform = await get(`/cm/cases/reports/card-type?${RANGE}&platforms=${mid!.processor}`);
    expect(byPlatform.total).toBe(await count('and c.processor_id = $3', [mid!.processor]));
    const byGateway = await get(
      `/cm/cases/reports/card-type?${RANGE}&gateway_id=${mid!.processor}&mid_id=-1`,
    );
    expect(byGateway.total).toBe(byPlatform.total);
    const trans = await get(`/cm/cases/reports/card-type?${RANGE}&date_reference=transaction`);
    expect(trans.total).toBe(
      (
        await rows<{ n: number }>(
          `select count(*)::int n from cases.cases c where c.tenant_id = 'acme' and c.date_trans between $1 and $2`,
          [FROM, TO],
        )
      )[0]!.n,
    );
    expect(
      (await c.call('GET', `/cm/cases/reports/card-type?date_range=${day(3)}|${day(5)}`, admin)).status,
    ).toBe(400);
    expect((await c.call('GET', '/cm/cases/reports/card-type?date_range=last-week', admin)).status).toBe(400);
  });

  it('a merchant user sees only its merchant and cannot switch to another', async () => {
    const mine = await get(`/cm/cases/reports/card-type?${RANGE}`, merchant);
    const expected = (
      await rows<{ n: number }>(
        `select count(*)::int n from cases.cases c where ${POSTED} and c.merchant_id = $3`,
        [FROM, TO, A1],
      )
    )[0]!.n;
    expect(mine.total).toBe(expected);
    const other = await rows<{ id: number }>(
      `select id::int from cases.merchants where tenant_id = 'acme' and id <> $1 and parent_id is distinct from $1 limit 1`,
      [A1],
    );
    expect(
      (await c.call('GET', `/cm/cases/reports/card-type?${RANGE}&merchant_id=${other[0]!.id}`, merchant))
        .status,
    ).toBe(400);
    const [foreignMid] = await rows<{ id: number }>(
      `select id::int from cases.mids where tenant_id = 'acme' and merchant_id <> $1 limit 1`,
      [A1],
    );
    expect(
      (await c.call('GET', `/cm/cases/reports/card-type?mid_id=${foreignMid!.id}`, merchant)).status,
    ).toBe(400);
  });
});

describe('resultant KPI and win rate', () => {
  it('KPI chargebacks per post month against the month sales; alerts against chargebacks', async () => {
    const kpi = await get(`/cm/cases/reports/res-kpi/chargebacks?${RANGE}`);
    const expected = await rows<{ m: string; cb: number; sales: number }>(
      `select to_char(g, 'YYYY-MM') as m,
         (select count(*)::int from cases.cases c where ${POSTED} and date_trunc('month', c.date_post) = g) as cb,
         (select coalesce(sum(trans_count), 0)::int from cases.transactions_daily t where t.tenant_id = 'acme'
            and date_trunc('month', t.day) = g and t.day between $1 and $2) as sales
       from generate_series(date_trunc('month', $1::date), $2::date, interval '1 month') g order by g`,
      [FROM, TO],
    );
    expect(kpi.data).toEqual(
      expected.map((r) => ({
        month: r.m,
        chargebacks: r.cb,
        transactions: r.sales,
        result_ratio: pct(r.cb, r.sales),
      })),
    );
    const alerts = await get(`/cm/cases/reports/res-kpi/alerts?${RANGE}`);
    const counted = await rows<{ m: string; n: number }>(
      `select to_char(date_trunc('month', a.alert_date at time zone 'UTC'), 'YYYY-MM') as m, count(*)::int as n
       from cases.alerts a where a.tenant_id = 'acme' and a.alert_date >= $1::date and a.alert_date < $2::date + 1 group by 1`,
      [FROM, TO],
    );
    for (const r of alerts.data) {
      expect(r.alert_total).toBe(counted.find((x) => x.m === r.month)?.n ?? 0);
      expect(r.chargeback_total).toBe(expected.find((x) => x.m === r.month)!.cb);
      expect(r.total).toBe(r.alert_total + r.chargeback_total);
    }
    expect(alerts.data.some((r: { alert_total: number }) => r.alert_total > 0)).toBe(true);
  });

  it('win rate by reason code: won, lost, rate and the ledger amounts in the reporting currency', async () => {
    // Decide some cases so the rates are not all empty.
    await c.t.db.query(
      `update cases.cases set verdict_id = case when id % 3 = 0 then 5 else 4 end, status_id = 10
       where id in (select id from cases.cases where tenant_id = 'acme' and date_post >= $1 order by id limit 60)`,
      [FROM],
    );
    const win = await get(`/cm/cases/reports/win-rate?${RANGE}&group_by=reason_code&limit=50`);
    const expected = await rows<{
      id: string;
      n: number;
      won: number;
      lost: number;
      amount: string;
      recovered: string;
      unrated: number;
    }>(
      // The money ledger's columns (migration 040): converted at the case's rate, partial recoveries as recovered.
      `select c.reason_code_id::text as id, count(*)::int as n, count(*) filter (where verdict_id = 4)::int as won,
         count(*) filter (where verdict_id = 5)::int as lost, coalesce(sum(rep_disputed), 0) as amount,
         coalesce(sum(rep_recovered), 0) as recovered, count(*) filter (where money_rate is null)::int as unrated
       from cases.cases c where ${POSTED} group by 1`,
      [FROM, TO],
    );
    expect(win.currency).toBe('USD');
    expect(win.data.length).toBe(Math.min(50, expected.length));
    for (const r of win.data) {
      const e = expected.find((x) => x.id === r.key)!;
      expect([r.chargebacks, r.won, r.lost, r.unrated]).toEqual([e.n, e.won, e.lost, e.unrated]);
      expect(r.win_rate).toBe(e.won + e.lost > 0 ? pct(e.won, e.won + e.lost) : null);
      expect(r.recovered_amount).toBe(Math.round(Number(e.recovered) * 100) / 100);
      expect(r.disputed_amount).toBe(Math.round(Number(e.amount) * 100) / 100);
    }
    expect(win.data.some((r: { won: number }) => r.won > 0)).toBe(true);
    const byMerchant = await get(`/cm/cases/reports/win-rate?${RANGE}&group_by=merchant`, merchant);
    expect(byMerchant.data.map((r: { key: string }) => r.key)).toEqual([String(A1)]);
  });
});
