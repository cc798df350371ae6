import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const merchant = demoCtx('acme', 'merchant.admin');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const last90 = `${day(-90)}|${day(0)}`;
const sql = async (query: string, params: unknown[] = []) =>
  (await c.t.db.query<{ n: number }>(query, params)).rows[0]!.n;
const A1 = demoMerchantId(ACME, 'merchantA1');

describe('dashboard and report calls', () => {
  it('chargebacks-mtd counts cases posted this month in scope', async () => {
    const monthStart = `${day(0).slice(0, 7)}-01`;
    const all = await c.call('GET', '/cm/cases/dashboard/chargebacks-mtd', admin);
    expect(all.body).toEqual({
      count: await sql(
        `select count(*)::int n from cases.cases where tenant_id = 'acme' and date_post between $1 and $2`,
        [monthStart, day(0)],
      ),
    });
    const mine = await c.call('GET', '/cm/cases/dashboard/chargebacks-mtd', merchant);
    expect(mine.body.count).toBe(
      await sql(
        `select count(*)::int n from cases.cases where merchant_id = $3 and date_post between $1 and $2`,
        [monthStart, day(0), A1],
      ),
    );
    const client = await c.call('GET', `/cm/cases/dashboard/chargebacks-mtd?client_id=${A1}`, admin);
    expect(client.body.count).toBe(mine.body.count);
  });

  it('cases-fraud-pct gives the fraud ratio over the range', async () => {
    const r = await c.call('GET', `/cm/cases/reports/cases-fraud-pct?date_range=${last90}`, admin);
    const fraud = await sql(
      `select count(*)::int n from cases.cases where tenant_id = 'acme' and is_fraud and date_post between $1 and $2`,
      [day(-90), day(0)],
    );
    const total = await sql(
      `select count(*)::int n from cases.cases where tenant_id = 'acme' and date_post between $1 and $2`,
      [day(-90), day(0)],
    );
    expect(r.body).toMatchObject({ fraud, total });
    expect(r.body.ratio).toBeCloseTo(fraud / total, 6);
    expect(r.body.percent).toBeCloseTo((100 * fraud) / total, 2);
  });

  it('mids-count counts MIDs in scope', async () => {
    expect((await c.call('GET', '/cm/cases/reports/mids-count', merchant)).body).toEqual({ count: 3 });
    const all = await c.call('GET', `/cm/cases/reports/mids-count?date_range=${last90}`, admin);
    expect(all.body.count).toBe(
      await sql(
        `select count(*)::int n from cases.mids where tenant_id = 'acme' and date_created < current_date + 1`,
      ),
    );
  });

  it('mids-top5 ranks MIDs by new chargebacks, pages, sorts and searches', async () => {
    const r = await c.call('GET', `/cm/cases/reports/mids-top5?date_range=${last90}`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    const news = r.body.data.map((x: { new: number }) => x.new);
    expect([...news].sort((a, b) => b - a)).toEqual(news);
    const top = r.body.data[0];
    expect(top.nonFraud + top.fraud).toBe(top.new);
    expect(top.percentFraud + top.percentNonFraud).toBeCloseTo(100, 1);
    expect(top.midDescriptor).toEqual(expect.any(String));
    // The rollups give what the cases of the range count (whole months and the days at the edges).
    const counted = await c.t.db.query<{ new: number; fraud: number; defended: number }>(
      `select count(*)::int as new, count(*) filter (where c.is_fraud)::int as fraud,
         count(*) filter (where c.status_id in (3, 6, 7, 8, 9, 10) or c.verdict_id = 4)::int as defended
       from cases.cases c join cases.mids mi on mi.id = c.mid_id
       where c.tenant_id = 'acme' and mi.mid = $1 and c.date_post between $2 and $3`,
      [top.mid, day(-90), day(0)],
    );
    expect({ new: top.new, fraud: top.fraud, defended: top.defended }).toEqual(counted.rows[0]);
    expect(r.body.pagination.total).toBe(
      await sql(
        `select count(distinct mid_id)::int n from cases.cases where tenant_id = 'acme' and date_post between $1 and $2`,
        [day(-90), day(0)],
      ),
    );
    const page2 = await c.call(
      'GET',
      `/cm/cases/reports/mids-top5?date_range=${last90}&start=5&limit=5&sort_by=mid&sort_order=asc`,
      admin,
    );
    const mids = page2.body.data.map((x: { mid: string }) => x.mid);
    expect([...mids].sort()).toEqual(mids);
    const search = await c.call(
      'GET',
      `/cm/cases/reports/mids-top5?date_range=${last90}&search=${top.mid}`,
      admin,
    );
    expect(search.body.data.map((x: { mid: string }) => x.mid)).toEqual([top.mid]);
    const bad = await c.call('GET', '/cm/cases/reports/mids-top5?sort_by=password', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('sort_by');
  });

  it('chargebacks-by-date-range gives one row per day, zeros included', async () => {
    const r = await c.call(
      'GET',
      `/cm/cases/dashboard/chargebacks-by-date-range?date_range=${day(-30)}|${day(0)}`,
      admin,
    );
    expect(r.body.data).toHaveLength(31);
    expect(r.body.data[0].date).toBe(day(-30));
    const sum = r.body.data.reduce((s: number, x: { count: number }) => s + x.count, 0);
    expect(sum).toBe(
      await sql(
        `select count(*)::int n from cases.cases where tenant_id = 'acme' and date_post between $1 and $2`,
        [day(-30), day(0)],
      ),
    );
  });

  it('by-status and by-card-type split the range', async () => {
    const range = `${day(-60)}|${day(0)}`;
    const total = await sql(
      `select count(*)::int n from cases.cases where tenant_id = 'acme' and date_post between $1 and $2`,
      [day(-60), day(0)],
    );
    const status = await c.call('GET', `/cm/cases/reports/chargebacks-by-status?date_range=${range}`, admin);
    expect(status.body.data.reduce((s: number, x: { count: number }) => s + x.count, 0)).toBe(total);
    expect(status.body.data[0]).toEqual({ case_status: expect.any(String), count: expect.any(Number) });
    const cards = await c.call(
      'GET',
      `/cm/cases/reports/chargebacks-by-card-type?date_range=${range}&names=Visa,Mastercard,Discover,Amex`,
      admin,
    );
    expect(cards.body.data.map((x: { name: string }) => x.name)).toEqual([
      'Visa',
      'Mastercard',
      'Discover',
      'Amex',
    ]);
    expect(cards.body.data.reduce((s: number, x: { count: number }) => s + x.count, 0)).toBe(total);
    const two = await c.call(
      'GET',
      `/cm/cases/reports/chargebacks-by-card-type?date_range=${range}&names=Visa,Amex`,
      admin,
    );
    expect(two.body.data.map((x: { name: string }) => x.name)).toEqual(['Visa', 'Amex', 'Other']);
  });

  it('tiles and charts read from the rollups equal the case rows, for every kind of scope', async () => {
    // A case posted tomorrow must stay out of this month so far, and one moved to another status group
    // must move in the status chart: the rollups follow the writes.
    const [tomorrow, moved] = (
      await c.t.db.query<{ id: number }>(
        `select id from cases.cases where merchant_id = $1 and status_group_id = 1 order by id limit 2`,
        [A1],
      )
    ).rows as [{ id: number }, { id: number }];
    await c.t.db.query(`update cases.cases set date_post = current_date + 1 where id = $1`, [tomorrow.id]);
    await c.t.db.query(`update cases.cases set status_id = 10, date_post = current_date where id = $1`, [
      moved.id,
    ]);
    const { rows: mids } = await c.t.db.query<{ id: number; mid: string }>(
      `select id, mid from cases.mids where merchant_id = $1 order by id limit 2`,
      [A1],
    );
    const scopes = [
      { ctx: admin, where: `tenant_id = 'acme'` },
      { ctx: merchant, where: `merchant_id = ${A1}` },
      {
        ctx: demoCtx('acme', 'merchant.admin', { mids_excluded: [mids[1]!.mid] }),
        where: `merchant_id = ${A1} and mid_id <> ${mids[1]!.id}`,
      },
      {
        ctx: demoCtx('acme', 'merchant.admin', { mids_allowed: [mids[0]!.mid] }),
        where: `mid_id = ${mids[0]!.id}`,
      },
    ];
    const monthStart = `${day(0).slice(0, 7)}-01`;
    for (const { ctx, where } of scopes) {
      const cases = async <T>(select: string, from: string, to: string, by = '') =>
        (
          await c.t.db.query<T>(
            `select ${select} from cases.cases c where ${where} and date_post between $1 and $2 ${by}`,
            [from, to],
          )
        ).rows;
      const [mtd] = await cases<{ n: number; fraud: number }>(
        'count(*)::int n, (count(*) filter (where is_fraud))::int fraud',
        monthStart,
        day(0),
      );
      expect((await c.call('GET', '/cm/cases/dashboard/chargebacks-mtd', ctx)).body, where).toEqual({
        count: mtd!.n,
      });
      const fraud = await c.call(
        'GET',
        `/cm/cases/reports/cases-fraud-pct?date_range=${monthStart}|${day(0)}`,
        ctx,
      );
      expect(fraud.body, where).toMatchObject({ fraud: mtd!.fraud, total: mtd!.n });
      const byDay = await cases<{ date: string; count: number }>(
        `to_char(date_post, 'YYYY-MM-DD') as date, count(*)::int as count`,
        day(-45),
        day(1),
        'group by date_post order by date_post',
      );
      const dates = await c.call(
        'GET',
        `/cm/cases/dashboard/chargebacks-by-date-range?date_range=${day(-45)}|${day(1)}`,
        ctx,
      );
      expect(
        dates.body.data.filter((x: { count: number }) => x.count > 0),
        where,
      ).toEqual(byDay);
      const statuses = await cases<{ case_status: string; count: number }>(
        `(select name from cases.status_groups where id = c.status_group_id) as case_status, count(*)::int as count`,
        day(-400),
        day(0),
        'group by c.status_group_id order by c.status_group_id',
      );
      const status = await c.call(
        'GET',
        `/cm/cases/reports/chargebacks-by-status?date_range=${day(-400)}|${day(0)}`,
        ctx,
      );
      expect(status.body.data, where).toEqual(statuses);
      const cards = await cases<{ name: string; count: number }>(
        `(select name from cases.card_types where id = c.card_type_id) as name, count(*)::int as count`,
        monthStart,
        day(0),
        'group by c.card_type_id order by c.card_type_id',
      );
      const names = cards.map((x) => x.name).join(',');
      const chart = await c.call('GET', `/cm/cases/reports/chargebacks-by-card-type?names=${names}`, ctx);
      expect(chart.body.data, where).toEqual(cards);
    }
  });

  it('answers 400 for malformed ranges and out-of-scope client ids', async () => {
    for (const url of [
      '/cm/cases/reports/cases-fraud-pct?date_range=last-week',
      '/cm/cases/dashboard/chargebacks-by-date-range?date_range=2025-01-10|2025-01-01',
      '/cm/cases/dashboard/chargebacks-by-date-range?date_range=2015-01-01|2025-01-01',
    ]) {
      const r = await c.call('GET', url, admin);
      expect(r.status, url).toBe(400);
      expect(r.body.message).toContain('date_range');
    }
    const other = await c.call(
      'GET',
      `/cm/cases/dashboard/chargebacks-mtd?client_id=${demoMerchantId(ACME, 'merchantB1')}`,
      merchant,
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('client_id');
  });
});
