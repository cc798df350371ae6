import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_SORT_COLUMNS, FILTER_GROUPS } from '@portal/contracts';
import { demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
const admin = demoCtx('acme', 'admin');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The same count straight from SQL, to check the API's totals. */
async function sqlCount(where: string, params: unknown[] = []): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `select count(*)::int as n from cases.cases c where c.tenant_id = 'acme' and ${where}`,
    params,
  );
  return rows[0]!.n;
}

describe('GET /cm/cases', () => {
  it('answers {data, pagination} sorted by due date by default, paged with start and limit', async () => {
    const r = await c.call('GET', '/cm/cases?limit=25', admin);
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ total: 3000, limit: 25, start: 0 });
    expect(r.body.data).toHaveLength(25);
    const dues = r.body.data.map((x: { date_due: string }) => x.date_due);
    expect([...dues].sort()).toEqual(dues);
    const row = r.body.data[0];
    for (const key of [
      'id',
      'case_no',
      'order_id',
      'cycle',
      'cycle_id',
      'mid',
      'mid_alias',
      'cc_type',
      'cc_bin',
      'cc_no',
      'reason_code',
      'reason_category',
      'date_post',
      'date_due',
      'date_completed',
      'date_created',
      'dispute_amt',
      'dispute_currency',
      'trans_amt',
      'date_trans',
      'comments',
      'status_group',
      'status_group_id',
      'verdict',
      'arn',
      'merchant_name',
      'flag',
      'assigned_user',
      'properties',
    ]) {
      expect(row, key).toHaveProperty(key);
    }
    const next = await c.call('GET', '/cm/cases?limit=25&start=25', admin);
    const ids = new Set(r.body.data.map((x: { id: number }) => x.id));
    expect(next.body.data.some((x: { id: number }) => ids.has(x.id))).toBe(false);
  });

  it('pages in the second half (read from the other end) match the SQL order, nulls included', async () => {
    for (const [column, order, nulls] of [
      ['date_due', 'asc', 'nulls last'],
      ['date_completed', 'asc', 'nulls last'],
      ['date_completed', 'desc', 'nulls first'],
    ] as const) {
      const { rows } = await c.t.db.query<{ id: number }>(
        `select id from cases.cases where tenant_id = 'acme' order by ${column} ${order} ${nulls}, id ${order} offset 2000 limit 30`,
      );
      const r = await c.call(
        'GET',
        `/cm/cases?sort_by=${column}&sort_order=${order}&start=2000&limit=30`,
        admin,
      );
      expect(
        r.body.data.map((x: { id: number }) => x.id),
        `${column} ${order}`,
      ).toEqual(rows.map((x) => Number(x.id)));
    }
    const tail = await c.call('GET', '/cm/cases?start=2990&limit=25', admin);
    expect(tail.body.data).toHaveLength(10);
    const past = await c.call('GET', '/cm/cases?start=5000&limit=25', admin);
    expect(past.body).toEqual({ data: [], pagination: { total: 3000, limit: 25, start: 5000 } });
  });

  it('limit=0 answers only the count', async () => {
    const r = await c.call('GET', '/cm/cases?limit=0&status_group_id=1', admin);
    expect(r.body.data).toEqual([]);
    expect(r.body.pagination.total).toBe(await sqlCount('status_group_id = 1'));
  });

  it('sorts on every sortable column in both directions', async () => {
    for (const column of CASE_SORT_COLUMNS) {
      for (const order of ['asc', 'desc']) {
        const r = await c.call('GET', `/cm/cases?limit=5&sort_by=${column}&sort_order=${order}`, admin);
        expect(r.status, `${column} ${order}`).toBe(200);
        expect(r.body.data).toHaveLength(5);
      }
    }
    const amounts = (
      await c.call('GET', '/cm/cases?limit=20&sort_by=dispute_amt&sort_order=desc', admin)
    ).body.data.map((x: { dispute_amt: number }) => x.dispute_amt);
    expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);
    const names = (await c.call('GET', '/cm/cases?limit=20&sort_by=merchant_name', admin)).body.data.map(
      (x: { merchant_name: string }) => x.merchant_name,
    );
    expect([...names].sort()).toEqual(names);
  });

  it('counts each tab like SQL does', async () => {
    const expected: Record<string, [string, unknown[]]> = {
      working_cases: ['status_group_id in (1, 2)', []],
      new_cases: ['status_id = 1', []],
      expiring_cases: [
        'status_group_id in (1, 2) and date_due between current_date and current_date + 3',
        [],
      ],
      primary_case_expire: [
        'status_group_id in (1, 2) and cycle_id = 1 and date_due between current_date and current_date + 10',
        [],
      ],
      assigned: ['assigned_user_id is not null', []],
      dnr: ['status_id = 4', []],
      expired: ['status_id = 5', []],
      in_progress: ['status_group_id = 2', []],
      completed: ['status_group_id = 3', []],
    };
    for (const group of FILTER_GROUPS) {
      const r = await c.call(
        'GET',
        `/cm/cases?limit=0&filter_group=${group}&primary_case_due_days=10`,
        admin,
      );
      const [where, params] = expected[group]!;
      const n = await sqlCount(where, params);
      expect(r.body.pagination.total, group).toBe(n);
      expect(n, group).toBeGreaterThan(0);
    }
  });

  it('filters by cycle, is_fraud, status group, date ranges, descriptor, amounts and search', async () => {
    const total = (url: string) => c.call('GET', url, admin).then((r) => r.body.pagination.total as number);
    expect(await total('/cm/cases?limit=0&cycle=9')).toBe(await sqlCount('cycle_id = 9'));
    expect(await total('/cm/cases?limit=0&cycle=1&is_fraud=1')).toBe(
      await sqlCount('cycle_id = 1 and is_fraud'),
    );
    expect(await total('/cm/cases?limit=0&cycle=1&is_fraud=0')).toBe(
      await sqlCount('cycle_id = 1 and not is_fraud'),
    );
    const range = `${day(-30)}|${day(0)}`;
    expect(await total(`/cm/cases?limit=0&date_range=${range}`)).toBe(
      await sqlCount(`date_post between $1 and $2`, [day(-30), day(0)]),
    );
    expect(await total(`/cm/cases?limit=0&status_group_id=1,2&due_date_range=${day(0)}|${day(3)}`)).toBe(
      await sqlCount(`status_group_id in (1,2) and date_due between $1 and $2`, [day(0), day(3)]),
    );
    expect(await total('/cm/cases?limit=0&dispute_amt=100&dispute_amt_operator=>=')).toBe(
      await sqlCount('dispute_amt >= 100'),
    );
    expect(await total('/cm/cases?limit=0&dispute_amt=100&dispute_amt_operator=<')).toBe(
      await sqlCount('dispute_amt < 100'),
    );
    const one = (await c.call('GET', '/cm/cases?limit=1&filter_group=new_cases', admin)).body.data[0];
    const byOrder = await c.call(
      'GET',
      `/cm/cases?search=${encodeURIComponent(one.order_id.toLowerCase())}`,
      admin,
    );
    expect(byOrder.body.data.map((x: { id: number }) => x.id)).toContain(one.id);
    const byId = await c.call('GET', `/cm/cases?search=${one.id}`, admin);
    expect(byId.body.data.map((x: { id: number }) => x.id)).toContain(one.id);
    const byCaseNo = await c.call(
      'GET',
      `/cm/cases?search=${one.case_no}&filter_group=new_cases&cycle=${one.cycle_id}`,
      admin,
    );
    expect(byCaseNo.body.data.map((x: { id: number }) => x.id)).toEqual([one.id]);
    const byMerchant = await c.call('GET', '/cm/cases?limit=0&search=blue%20sky', admin);
    expect(byMerchant.body.pagination.total).toBe(await sqlCount(`merchant_id = 1000011`));
    const descriptor = await c.t.db.query<{ descriptor: string; mid_id: number }>(
      `select descriptor, mid_id from cases.descriptors where id = (select descriptor_id from cases.cases where id = $1)`,
      [one.id],
    );
    const byDescriptor = await c.call(
      'GET',
      `/cm/cases?limit=0&descriptor=${encodeURIComponent(descriptor.rows[0]!.descriptor)}`,
      admin,
    );
    expect(byDescriptor.body.pagination.total).toBe(
      await sqlCount(`descriptor_id = (select descriptor_id from cases.cases where id = $1)`, [one.id]),
    );
    const byMid = await c.call('GET', `/cm/cases?limit=0&mid=${one.mid}`, admin);
    expect(byMid.body.pagination.total).toBe(await sqlCount('mid_id = $1', [one.mid_id]));
  });

  it('answers 400 naming the parameter for bad input', async () => {
    const cases: Array<[string, string]> = [
      ['/cm/cases?sort_by=password', 'sort_by'],
      ['/cm/cases?limit=-1', 'limit'],
      ['/cm/cases?start=-5', 'start'],
      ['/cm/cases?limit=5000', 'limit'],
      ['/cm/cases?date_range=2024-01-01', 'date_range'],
      ['/cm/cases?date_range=2024-02-30|2024-03-01', 'date_range'],
      ['/cm/cases?due_date_range=2024-05-01|2024-04-01', 'due_date_range'],
      ['/cm/cases?filter_group=everything', 'filter_group'],
      ['/cm/cases?cycle=first', 'cycle'],
      ['/cm/cases?client_id=999999999', 'client_id'],
      ['/cm/cases?dispute_amt_operator=%3E', 'dispute_amt'],
      ['/cm/cases?sort_order=up', 'sort_order'],
    ];
    for (const [url, param] of cases) {
      const r = await c.call('GET', url, admin);
      expect(r.status, url).toBe(400);
      expect(r.body.message, url).toContain(param);
    }
  });

  it('narrows to a merchant subtree with client_id', async () => {
    const r = await c.call('GET', '/cm/cases?limit=0&client_id=1000002', admin);
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.cases where merchant_id in (select id from cases.merchants where id = 1000002 or parent_id = 1000002)`,
    );
    expect(r.body.pagination.total).toBe(rows[0]!.n);
  });

  it('GET /cm/cases/{id} answers the detail; unknown ids 404', async () => {
    const one = (await c.call('GET', '/cm/cases?limit=1', admin)).body.data[0];
    const r = await c.call('GET', `/cm/cases/${one.id}`, admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: one.id,
      case_no: one.case_no,
      merchant: { id: one.merchant_id, business_name: one.merchant_name },
    });
    expect(typeof r.body.reason_code_message).toBe('string');
    expect((await c.call('GET', '/cm/cases/123', admin)).status).toBe(404);
    expect((await c.call('GET', '/cm/cases/abc', admin)).status).toBe(400);
  });

  it('GET /cm/cases/reports/cases-status-totals sums to the case count', async () => {
    const r = await c.call('GET', '/cm/cases/reports/cases-status-totals', admin);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(r.body.total).toBe(3000);
    const dnr = r.body.data.find((x: { status_group_id: number }) => x.status_group_id === 5);
    expect(dnr.count).toBe(await sqlCount('status_id = 4'));
  });
});
