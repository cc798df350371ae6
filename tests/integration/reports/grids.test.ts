import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/**
 * MID health, reconciliation, month to date, alerts and monitoring reports against figures computed
 * here with plain SQL over the base tables (the money as the ledger's case columns and rates have it);
 * the reconciliation writes and their refusals.
 */
let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const merchant = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
const A1 = demoMerchantId(ACME, 'merchantA1');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const FROM = day(-60);
const TO = day(0);
const RANGE = `date_range=${FROM}|${TO}`;
const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await c.t.db.query<T>(sql, params)).rows;
const pct = (n: number, base: number) => (base > 0 ? Math.round((n / base) * 10_000) / 100 : 0);
const money = (v: string) => Math.round(Number(v) * 100) / 100;

async function get(path: string, ctx = admin) {
  const r = await c.call('GET', path, ctx);
  expect(r.status, r.raw).toBe(200);
  return r.body;
}

describe('MID health', () => {
  it('gives each MID its sales, chargebacks, alerts, ratios and rating', async () => {
    const grid = await get(`/cm/cases/reports/mid-health?${RANGE}&limit=1000`);
    const mids = await rows<{ id: string; cb: number; sales: number; alerts: number; eth: number }>(
      `select mi.id::text,
         (select count(*)::int from cases.cases c where c.mid_id = mi.id and c.date_post between $1 and $2) as cb,
         (select coalesce(sum(trans_count), 0)::int from cases.transactions_daily t where t.mid_id = mi.id
            and t.day between $1 and $2) as sales,
         (select count(*)::int from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
            where ad.mid_id = mi.id and a.alert_date >= $1::date and a.alert_date < $2::date + 1) as alerts,
         (select count(*)::int from cases.alerts a join cases.alert_descriptors ad on ad.id = a.descriptor_id
            join cases.sources s on s.id = a.source_id
            where ad.mid_id = mi.id and s.code = 'ETH' and a.alert_date >= $1::date and a.alert_date < $2::date + 1) as eth
       from cases.mids mi where mi.tenant_id = 'acme'`,
      [FROM, TO],
    );
    expect(grid.pagination.total).toBe(mids.length);
    for (const m of mids) {
      const r = grid.data.find((x: { mid_id: number }) => String(x.mid_id) === m.id);
      expect([r.chargebacks, r.transactions, r.alert_count, r.ethoca_count]).toEqual([
        m.cb,
        m.sales,
        m.alerts,
        m.eth,
      ]);
      expect(r.ratio).toBe(pct(m.cb, m.sales));
      expect(r.alert_trans_ratio).toBe(pct(m.alerts, m.sales));
      const expected =
        m.sales === 0
          ? null
          : r.ratio >= 1.5 || r.alert_trans_ratio >= 3
            ? 'High Risk'
            : r.ratio >= 0.9 || r.alert_trans_ratio >= 2
              ? 'Medium Risk'
              : r.ratio >= 0.5 || r.alert_trans_ratio >= 1
                ? 'Low Risk'
                : 'Good';
      expect(r.health).toBe(expected);
    }
    expect(mids.some((m) => m.alerts > 0)).toBe(true);
    expect(new Set(grid.data.map((r: { health: string }) => r.health)).size).toBeGreaterThan(1);
  });

  it('filters by rating, pages 50 by default, scopes merchant users and exports CSV', async () => {
    const all = await get(`/cm/cases/reports/mid-health?${RANGE}&limit=1000`);
    const rating = all.data[0].health;
    const filtered = await get(
      `/cm/cases/reports/mid-health?${RANGE}&rating=${encodeURIComponent(rating)}&limit=1000`,
    );
    expect(filtered.pagination.total).toBe(
      all.data.filter((r: { health: string }) => r.health === rating).length,
    );
    expect((await get(`/cm/cases/reports/mid-health?${RANGE}`)).data.length).toBe(
      Math.min(50, all.data.length),
    );
    const mine = await get(`/cm/cases/reports/mid-health?${RANGE}&limit=1000`, merchant);
    const ownMids = await rows<{ n: number }>(
      `select count(*)::int n from cases.mids where merchant_id = $1`,
      [A1],
    );
    expect(mine.pagination.total).toBe(ownMids[0]!.n);
    const csv = await c.call('GET', `/cm/cases/reports/mid-health.csv?${RANGE}`, merchant);
    expect(csv.status).toBe(200);
    const lines = csv.raw.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Health');
    expect(lines).toHaveLength(ownMids[0]!.n + 1);
  });
});

describe('reconciliation', () => {
  it('sums the cycles and representments of each platform and day', async () => {
    const list = await get(`/cm/cases/reports/reconciliation?${RANGE}&limit=1000`);
    const expected = await rows<{
      date: string;
      pid: number;
      c1: number;
      c2: number;
      rfi: number;
      wins: number;
    }>(
      `select to_char(date_post, 'YYYY-MM-DD') as date, processor_id as pid,
         count(*) filter (where cycle_id = 1)::int as c1, count(*) filter (where cycle_id = 2)::int as c2,
         count(*) filter (where cycle_id = 9)::int as rfi, count(*) filter (where verdict_id = 4)::int as wins
       from cases.cases where tenant_id = 'acme' and date_post between $1 and $2 and processor_id is not null
       group by 1, 2 having count(*) filter (where cycle_id in (1, 2, 9) or verdict_id = 4) > 0`,
      [FROM, TO],
    );
    expect(list.pagination.total).toBeGreaterThanOrEqual(expected.length);
    for (const e of expected) {
      const r = list.data.find((x: { id: string }) => x.id === `${e.pid}|${e.date}`);
      expect([r.first_cycle_total, r.second_cycle_total, r.retrievals, r.total_wins]).toEqual([
        e.c1,
        e.c2,
        e.rfi,
        e.wins,
      ]);
      const sum = (m: Record<string, number>) => Object.values(m).reduce((s, n) => s + n, 0);
      expect(sum(r.first_cycle)).toBe(e.c1);
    }
  });

  it('flags with a comment, unflags, marks reviewed; read-only users and unknown rows are refused', async () => {
    const list = await get(`/cm/cases/reports/reconciliation?${RANGE}`, merchant);
    const row = list.data[0];
    const key = { processor_id: row.processor_id, date: row.date };
    const flag = { flags: [{ ...key, comment: 'Totals differ from the processor file' }] };

    const refused = await c.call('POST', '/cm/cases/reports/reconciliation/flag/bulk', readonly, flag);
    expect(refused.status).toBe(403);
    expect(
      (await c.call('POST', '/cm/cases/reports/reconciliation/review', readonly, { rows: [key] })).status,
    ).toBe(403);
    const nowhere = await c.call('POST', '/cm/cases/reports/reconciliation/flag/bulk', merchant, {
      flags: [{ ...key, date: '2001-01-01', comment: 'x' }],
    });
    expect(nowhere.status).toBe(400);

    const flagged = await c.call('POST', '/cm/cases/reports/reconciliation/flag/bulk', merchant, flag);
    expect(flagged.status, flagged.raw).toBe(200);
    const flagId = flagged.body.data[0].id;
    let again = (await get(`/cm/cases/reports/reconciliation?${RANGE}`, merchant)).data.find(
      (x: { id: string }) => x.id === row.id,
    );
    expect(again.flag).toMatchObject({ id: flagId, comment: 'Totals differ from the processor file' });
    // Marks belong to the scope that made them: staff do not see the merchant's flag.
    const staff = (await get(`/cm/cases/reports/reconciliation?${RANGE}&limit=1000`)).data.find(
      (x: { id: string }) => x.id === row.id,
    );
    expect(staff.flag).toBeNull();
    expect(
      (await c.call('POST', '/cm/cases/reports/reconciliation/flag/delete', readonly, { ids: [flagId] }))
        .status,
    ).toBe(403);
    expect(
      (await c.call('POST', '/cm/cases/reports/reconciliation/flag/delete', admin, { ids: [flagId] })).status,
    ).toBe(404);
    const unflagged = await c.call('POST', '/cm/cases/reports/reconciliation/flag/delete', merchant, {
      ids: [flagId],
    });
    expect(unflagged.body).toEqual({ count: 1 });

    const reviewed = await c.call('POST', '/cm/cases/reports/reconciliation/review', merchant, {
      rows: [key],
    });
    expect(reviewed.body).toEqual({ count: 1 });
    again = (await get(`/cm/cases/reports/reconciliation?${RANGE}`, merchant)).data.find(
      (x: { id: string }) => x.id === row.id,
    );
    expect(again).toMatchObject({ flag: null, reviewer: 'merchant.admin' });
    const csv = await c.call('GET', `/cm/cases/reports/reconciliation.csv?${RANGE}`, merchant);
    expect(csv.raw.split(/\r?\n/)[0]).toContain('First Cycle');
    expect(csv.raw).toContain('merchant.admin');
  });
});

describe('month to date, alerts and monitoring', () => {
  it('month to date against the same days of the previous month', async () => {
    const mtd = await get('/cm/cases/reports/mtd');
    // Money in the reporting currency (USD) as the money ledger has it: the cases' converted columns
    // (migration 040), and the sales of each day and currency at the newest rate on or before that day.
    const count = async (from: string, to: string) =>
      (
        await rows<{
          n: number;
          amount: string;
          won: number;
          recovered: string;
          unrated: number;
          sales: number;
          sales_amount: string;
          alerts: number;
        }>(
          `select (select count(*)::int from cases.cases where tenant_id = 'acme' and date_post between $1 and $2) as n,
             (select coalesce(sum(rep_disputed), 0) from cases.cases where tenant_id = 'acme' and date_post between $1 and $2) as amount,
             (select count(*)::int from cases.cases where tenant_id = 'acme' and date_post between $1 and $2
                and verdict_id = 4) as won,
             (select coalesce(sum(rep_recovered), 0) from cases.cases where tenant_id = 'acme'
                and date_post between $1 and $2) as recovered,
             (select count(*)::int from cases.cases where tenant_id = 'acme' and date_post between $1 and $2
                and money_rate is null) as unrated,
             (select coalesce(sum(trans_count), 0)::int from cases.transactions_daily where tenant_id = 'acme'
                and day between $1 and $2) as sales,
             (select coalesce(sum(round(t.amount * case when t.currency_id = 1 then 1 else
                  (select e.rate_to_reporting from cases.exchange_rates e where e.tenant_id = 'acme'
                     and e.currency_id = t.currency_id and e.day <= t.day order by e.day desc limit 1) end, 2)), 0)
                from (select day, currency_id, sum(trans_amount) as amount from cases.transactions_daily
                      where tenant_id = 'acme' and day between $1 and $2 group by 1, 2) t) as sales_amount,
             (select count(*)::int from cases.alerts where tenant_id = 'acme' and alert_date >= $1::date
                and alert_date < $2::date + 1) as alerts`,
          [from, to],
        )
      )[0]!;
    const cur = await count(mtd.current.from, mtd.current.to);
    const prev = await count(mtd.previous.from, mtd.previous.to);
    const metric = (k: string) => mtd.metrics.find((m: { key: string }) => m.key === k);
    expect(mtd.current.from).toBe(`${TO.slice(0, 7)}-01`);
    expect([metric('chargebacks').current, metric('chargebacks').previous]).toEqual([cur.n, prev.n]);
    expect(mtd.currency).toBe('USD');
    expect([metric('chargeback_amount').current, metric('chargeback_amount').previous]).toEqual([
      money(cur.amount),
      money(prev.amount),
    ]);
    expect([metric('recovered').current, metric('recovered').previous]).toEqual([
      money(cur.recovered),
      money(prev.recovered),
    ]);
    expect([metric('transaction_amount').current, metric('transaction_amount').previous]).toEqual([
      money(cur.sales_amount),
      money(prev.sales_amount),
    ]);
    expect(mtd.unrated).toEqual({
      chargebacks: { current: cur.unrated, previous: prev.unrated },
      transactions: { current: 0, previous: 0 },
    });
    expect([metric('transactions').current, metric('transactions').previous]).toEqual([
      cur.sales,
      prev.sales,
    ]);
    expect(metric('ratio').current).toBe(pct(cur.n, cur.sales));
    expect([metric('won').current, metric('won').previous]).toEqual([cur.won, prev.won]);
    expect([metric('alerts').current, metric('alerts').previous]).toEqual([cur.alerts, prev.alerts]);
    expect(mtd.daily.at(-1)).toMatchObject({ current: cur.n, previous: prev.n });
    // Cumulative by day of month: the first day's figure is that day alone.
    const first = await count(mtd.current.from, mtd.current.from);
    expect(mtd.daily[0]).toMatchObject({ day: 1, current: first.n });
  });

  it('alerts report: outcomes and savings per source', async () => {
    const report = await get(`/cm/cases/reports/alerts?${RANGE}`);
    const expected = await rows<{ source: string; n: number; resolved: number; savings: string }>(
      `select s.name as source, count(a.id)::int as n,
         count(a.id) filter (where a.outcome_id in (1, 2, 3, 8))::int as resolved,
         coalesce(sum(a.trans_amount) filter (where a.outcome_id in (1, 2, 3, 8)), 0) as savings
       from cases.sources s left join cases.alerts a on a.source_id = s.id and a.tenant_id = 'acme'
         and a.alert_date >= $1::date and a.alert_date < $2::date + 1
       group by s.id, s.name order by s.id`,
      [FROM, TO],
    );
    expect(
      report.data.map((r: { source: string; alerts: number; resolved: number }) => [
        r.source,
        r.alerts,
        r.resolved,
      ]),
    ).toEqual(expected.map((e) => [e.source, e.n, e.resolved]));
    expect(report.total.alerts).toBe(expected.reduce((s, e) => s + e.n, 0));
    expect(report.total.savings).toBeCloseTo(
      expected.reduce((s, e) => s + Number(e.savings), 0),
      2,
    );
    expect(report.outcomes.reduce((s: number, o: { count: number }) => s + o.count, 0)).toBe(
      report.total.alerts,
    );
  });

  it('monitoring: Visa and Mastercard disputes against sales and their thresholds', async () => {
    const month = day(-35).slice(0, 7);
    const report = await get(`/cm/cases/reports/monitoring?month=${month}&limit=1000`);
    const visa = report.programs.find((p: { network: string }) => p.network === 'Visa');
    const mc = report.programs.find((p: { network: string }) => p.network === 'Mastercard');
    expect([visa.ratio_threshold, visa.count_threshold, mc.ratio_threshold, mc.count_threshold]).toEqual([
      0.9, 100, 1.5, 100,
    ]);
    const expected = await rows<{ card: number; cb: number; sales: number }>(
      `select ct.id as card,
         (select count(*)::int from cases.cases c where c.tenant_id = 'acme' and c.card_type_id = ct.id
            and to_char(c.date_post, 'YYYY-MM') = $1) as cb,
         (select coalesce(sum(trans_count), 0)::int from cases.transactions_daily t where t.tenant_id = 'acme'
            and t.card_type_id = ct.id and to_char(t.day, 'YYYY-MM') = $1) as sales
       from cases.card_types ct where ct.id in (1, 2) order by ct.id`,
      [month],
    );
    expect([visa.disputes, visa.transactions]).toEqual([expected[0]!.cb, expected[0]!.sales]);
    expect([mc.disputes, mc.transactions]).toEqual([expected[1]!.cb, expected[1]!.sales]);
    expect(visa.ratio).toBe(pct(expected[0]!.cb, expected[0]!.sales));
    for (const r of report.data) {
      const p = r.network === 'Visa' ? visa : mc;
      const above = r.ratio >= p.ratio_threshold && r.disputes >= p.count_threshold;
      expect(r.status === 'Above threshold').toBe(above);
    }
    const mine = await get(`/cm/cases/reports/monitoring?month=${month}&limit=1000`, merchant);
    const midsOfA1 = await rows<{ id: number }>(`select id::int from cases.mids where merchant_id = $1`, [
      A1,
    ]);
    for (const r of mine.data) expect(midsOfA1.map((m) => m.id)).toContain(r.mid_id);
  });
});
