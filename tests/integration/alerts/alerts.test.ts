import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { ALERT_EXPORT_COLUMNS, demoMerchantId } from '@portal/contracts';
import { contextHeaders } from '../../support/context';
import { SEARCH_COUNT_CAP } from '../../../services/case/src/alerts/alert-repository';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';
import { parseCsv } from '../../support/csv';

interface Sheet {
  getRow(n: number): { values: unknown };
}
const ExcelJS = createRequire(new URL('../../../services/case/package.json', import.meta.url))('exceljs') as {
  Workbook: new () => {
    xlsx: { load(data: Buffer): Promise<unknown> };
    getWorksheet(name: string): Sheet | undefined;
  };
};

let c: CaseApp;
const admin = demoCtx('acme', 'admin');
const mAdmin = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
/** merchant_admin of merchantA2, whose alerts service level is Basic. */
const basicUser = demoCtx('acme', 'federated');
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

/** An open alert with no outcome of the merchant (recent, mapped descriptor). */
async function openAlert(merchantId: number): Promise<number> {
  const { rows } = await c.t.db.query<{ id: string }>(
    `select a.id from cases.alerts a join cases.alert_descriptors d on d.id = a.descriptor_id
     where a.merchant_id = $1 and not a.completed and a.outcome_id is null and d.mid_id is not null
       and not exists (select 1 from cases.alert_history h where h.alert_id = a.id and h.username <> 'system')
     order by a.alert_date desc limit 1 offset 0 for update skip locked`,
    [merchantId],
  );
  if (!rows[0]) {
    // Make one: the seed's open alerts may all be taken by earlier tests.
    const made = await c.t.db.query<{ id: string }>(
      `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
         trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
       select 'acme', $1, d.id, 1, 'ORD-T' || floor(random() * 1e6)::int, 42.5, 1, current_date - 2, 1, '411111', '1111',
         now() - interval '1 hour', now() + interval '71 hours'
       from cases.alert_descriptors d where d.merchant_id = $1 and d.mid_id is not null order by d.id limit 1
       returning id`,
      [merchantId],
    );
    return Number(made.rows[0]!.id);
  }
  return Number(rows[0].id);
}

async function freshAlert(merchantId: number): Promise<number> {
  const made = await c.t.db.query<{ id: string }>(
    `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
       trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
     select 'acme', $1, d.id, 2, 'ORD-F' || floor(random() * 1e6)::int, 19.99, 1, current_date - 2, 2, '510000', '2222',
       now() - interval '1 hour', now() + interval '71 hours'
     from cases.alert_descriptors d where d.merchant_id = $1 and d.mid_id is not null order by d.id limit 1
     returning id`,
    [merchantId],
  );
  return Number(made.rows[0]!.id);
}

describe('seed', () => {
  it('gives every demo merchant with MIDs alerts from Ethoca, CDRN and RDR, some on unmapped descriptors', async () => {
    const { rows } = await c.t.db.query<{ merchant_id: string; n: number }>(
      `select m.id as merchant_id, count(a.id)::int as n from cases.merchants m
       left join cases.alerts a on a.merchant_id = m.id
       where m.tenant_id = 'acme' and m.id < $1 and exists (select 1 from cases.mids x where x.merchant_id = m.id)
       group by m.id`,
      [demoMerchantId(ACME, 'root') + 99],
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const r of rows) expect(r.n).toBeGreaterThan(10);
    const shares = await c.t.db.query<{ source_id: number; share: number }>(
      `select source_id, count(*)::float / sum(count(*)) over () as share from cases.alerts where tenant_id = 'acme' group by 1`,
    );
    const share = new Map(shares.rows.map((r) => [Number(r.source_id), r.share]));
    expect(share.get(1)).toBeGreaterThan(0.35);
    expect(share.get(2)).toBeGreaterThan(0.2);
    expect(share.get(3)).toBeGreaterThan(0.08);
    const unmapped = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.alerts a join cases.alert_descriptors d on d.id = a.descriptor_id
       where a.tenant_id = 'acme' and d.mid_id is null`,
    );
    expect(unmapped.rows[0]!.n).toBeGreaterThan(0);
    const span = await c.t.db.query<{ days: number }>(
      `select extract(day from now() - min(alert_date))::int as days from cases.alerts where tenant_id = 'acme'`,
    );
    expect(span.rows[0]!.days).toBeGreaterThan(400);
  });
});

describe('GET /cm/svc/alerts', () => {
  it('defaults to the last 7 days, scoped to the merchant subtree, paged and counted in SQL', async () => {
    const r = await c.call('GET', '/cm/svc/alerts?limit=10', mAdmin);
    expect(r.status).toBe(200);
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.alerts where merchant_id = $1
       and alert_date >= (current_date - 7)::timestamp at time zone 'UTC'`,
      [A1],
    );
    expect(r.body.pagination).toEqual({ total: rows[0]!.n, limit: 10, start: 0 });
    expect(r.body.data.length).toBe(Math.min(10, rows[0]!.n));
    expect(r.body.data.every((a: { merchant_id: number }) => a.merchant_id === A1)).toBe(true);
    const dates = r.body.data.map((a: { alert_date: string }) => a.alert_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const count = await c.call('GET', '/cm/svc/alerts?limit=0', mAdmin);
    expect(count.body).toEqual({ data: [], pagination: { total: rows[0]!.n, limit: 0, start: 0 } });
  });

  it('sorts, searches, filters by descriptor and narrows by the merchant switcher', async () => {
    const range = `date_range=2020-01-01|2099-01-01`;
    const sorted = await c.call(
      'GET',
      `/cm/svc/alerts?${range}&sort_by=trans_amount&sort_order=asc&limit=50`,
      mAdmin,
    );
    expect(sorted.status).toBe(200);
    const amounts = sorted.body.data.map((a: { trans_amount: number }) => a.trans_amount);
    expect([...amounts].sort((x, y) => x - y)).toEqual(amounts);
    const some = sorted.body.data[3];
    const byOrder = await c.call(
      'GET',
      `/cm/svc/alerts?${range}&search=${some.order_id.toLowerCase()}`,
      mAdmin,
    );
    expect(byOrder.body.data.map((a: { alert_id: number }) => a.alert_id)).toContain(some.alert_id);
    const byDescriptor = await c.call(
      'GET',
      `/cm/svc/alerts?${range}&descriptor=${encodeURIComponent(some.descriptor)}&limit=1000`,
      mAdmin,
    );
    expect(byDescriptor.body.data.length).toBeGreaterThan(0);
    expect(
      byDescriptor.body.data.every((a: { descriptor: string }) => a.descriptor === some.descriptor),
    ).toBe(true);
    const staff = await c.call('GET', `/cm/svc/alerts?${range}&merchant_id=${A2}&limit=1000`, admin);
    expect(staff.body.data.length).toBeGreaterThan(0);
    expect(staff.body.data.every((a: { merchant_id: number }) => a.merchant_id === A2)).toBe(true);
  });

  it('counts a very broad search up to the cap and says the total is a lower bound', async () => {
    const range = `date_range=2020-01-01|2099-01-01`;
    // Copies of one alert under a new order id prefix, one more than the cap.
    await c.t.db.query(
      `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
         trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
       select a.tenant_id, a.merchant_id, a.descriptor_id, a.source_id, 'BROAD-' || g, a.trans_amount, a.currency_id,
         a.trans_date, a.card_type_id, a.cc_bin, a.cc_last_four, a.alert_date, a.expiration_date
       from (select * from cases.alerts where merchant_id = $1 order by id limit 1) a, generate_series(1, $2::int) g`,
      [A1, SEARCH_COUNT_CAP + 1],
    );
    const broad = await c.call('GET', `/cm/svc/alerts?${range}&search=broad-&limit=50`, mAdmin);
    expect(broad.status).toBe(200);
    expect(broad.body.pagination).toEqual({
      total: SEARCH_COUNT_CAP,
      limit: 50,
      start: 0,
      total_is_lower_bound: true,
    });
    expect(broad.body.data).toHaveLength(50);
    // A narrower one is counted exactly (broad-1, broad-10..19, broad-100..199, broad-1000..1999, broad-10000, broad-10001).
    const narrow = await c.call('GET', `/cm/svc/alerts?${range}&search=broad-1&limit=0`, mAdmin);
    expect(narrow.body.pagination).toEqual({ total: 1 + 10 + 100 + 1000 + 2, limit: 0, start: 0 });
    await c.t.db.query(`delete from cases.alerts where order_id like 'BROAD-%'`);
  });

  it.each([
    ['a merchant outside the scope', `merchant_id=${A2}`, 'merchant_id'],
    ['a malformed date range', 'date_range=2024-01-01', 'date_range'],
    ['a future start date', 'date_range=2099-01-01|2099-01-02', 'future'],
    ['an unknown sort column', 'sort_by=password', 'sort_by'],
    ['a negative start', 'start=-1', 'start'],
  ])('answers 400 for %s', async (_name, query, word) => {
    const r = await c.call('GET', `/cm/svc/alerts?${query}`, mAdmin);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(word);
  });
});

describe('service level, outcomes, descriptors', () => {
  it('answers the alerts service level of the merchant being worked', async () => {
    expect((await c.call('GET', '/cm/svc/alerts/service-level', mAdmin)).body).toMatchObject({
      merchant_id: A1,
      service_level_id: 2,
      name: 'Self Service',
    });
    expect((await c.call('GET', '/cm/svc/alerts/service-level', basicUser)).body.service_level_id).toBe(1);
    expect(
      (await c.call('GET', `/cm/svc/alerts/service-level?merchant_id=${A1}`, admin)).body.service_level_id,
    ).toBe(2);
    expect((await c.call('GET', `/cm/svc/alerts/service-level?merchant_id=${A2}`, mAdmin)).status).toBe(400);
  });

  it('lists the outcomes: 1-3 refunds, 6 case related', async () => {
    const r = await c.call('GET', '/cm/svc/alerts/outcome/dropdown', mAdmin);
    const kinds = new Map(r.body.data.map((o: { id: number; kind: string }) => [o.id, o.kind]));
    expect([1, 2, 3].map((id) => kinds.get(id))).toEqual(['refund', 'refund', 'refund']);
    expect(kinds.get(6)).toBe('case');
  });

  it('type-ahead of descriptors within the scope', async () => {
    const all = await c.call('GET', '/cm/svc/descriptors?limit=999', mAdmin);
    expect(all.body.data.length).toBeGreaterThan(1);
    const first = all.body.data[0].descriptor as string;
    const r = await c.call(
      'GET',
      `/cm/svc/descriptors?search=${encodeURIComponent(first.slice(0, 5).toLowerCase())}`,
      mAdmin,
    );
    expect(r.body.data.every((d: { descriptor: string }) => d.descriptor.startsWith(first.slice(0, 5)))).toBe(
      true,
    );
    const mine = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.alert_descriptors where merchant_id = $1`,
      [A1],
    );
    expect(all.body.pagination.total).toBe(mine.rows[0]!.n);
  });
});

describe('POST /cm/svc/alerts/outcome', () => {
  it.each([
    ['no refund details', { outcome_id: 1 }, ['refund_id', 'order_id', 'customer_name']],
    [
      'blank refund details',
      { outcome_id: 2, refund_id: ' ', order_id: '', customer_name: 'Ann' },
      ['refund_id', 'order_id'],
    ],
    ['no customer name', { outcome_id: 3, refund_id: 'R1', order_id: 'O1' }, ['customer_name']],
    ['no case id for outcome 6', { outcome_id: 6 }, ['case_id']],
    ['an unknown outcome', { outcome_id: 99 }, ['outcome_id']],
  ])('refuses %s with 400 naming the fields, changing nothing', async (_n, body, fields) => {
    const id = await openAlert(A1);
    const r = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: id, ...body });
    expect(r.status).toBe(400);
    expect(r.body.data.fields.map((f: { name: string }) => f.name)).toEqual(fields);
    const row = await c.t.db.query('select outcome_id from cases.alerts where id = $1', [id]);
    expect(row.rows[0]).toEqual({ outcome_id: null });
  });

  it.each([
    ['outcome 0', { outcome_id: 0 }],
    ['a string alert id', { alert_id: 'x', outcome_id: 1 }],
    ['an oversized case id', { outcome_id: 6, case_id: 1e20 }],
  ])('refuses %s by schema', async (_n, body) => {
    const r = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, {
      alert_id: await openAlert(A1),
      ...body,
    });
    expect(r.status).toBe(400);
  });

  it('marks a refund outcome with its details and records the history', async () => {
    const id = await freshAlert(A1);
    const r = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, {
      alert_id: id,
      user_id: 1,
      outcome_id: 1,
      refund_id: 'RF-1',
      order_id: 'ORD-9',
      customer_name: 'Jo Doe',
    });
    expect(r.status).toBe(200);
    expect(r.body.alert).toMatchObject({
      outcome_id: 1,
      outcome: 'Refunded',
      status: 'Marked',
      refund_id: 'RF-1',
    });
    // Editable while open: a second outcome replaces the first and clears the refund details.
    const again = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: id, outcome_id: 4 });
    expect(again.body.alert).toMatchObject({ outcome_id: 4, refund_id: null, customer_name: null });
    const h = await c.call('GET', `/cm/svc/alerts/history?alert_id=${id}`, mAdmin);
    expect(
      h.body.data.map((x: { old_outcome_name: string | null; new_outcome_name: string }) => [
        x.old_outcome_name,
        x.new_outcome_name,
      ]),
    ).toEqual([
      ['Refunded', 'No Match Found'],
      [null, 'Refunded'],
    ]);
    expect(h.body.data[0].username).toBe('merchant.admin');
  });

  it('outcome 6 needs a case of the alert merchant in scope', async () => {
    const id = await freshAlert(A1);
    const other = await c.t.db.query<{ id: string }>(
      `select id from cases.cases where merchant_id = $1 limit 1`,
      [A2],
    );
    const own = await c.t.db.query<{ id: string }>(
      `select id from cases.cases where merchant_id = $1 limit 1`,
      [A1],
    );
    const bad = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, {
      alert_id: id,
      outcome_id: 6,
      case_id: Number(other.rows[0]!.id),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields[0].name).toBe('case_id');
    const ok = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, {
      alert_id: id,
      outcome_id: 6,
      case_id: Number(own.rows[0]!.id),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.alert.case_id).toBe(Number(own.rows[0]!.id));
  });

  it('refuses read-only users, Basic service level merchants and alerts outside the scope', async () => {
    const id = await freshAlert(A1);
    const body = { alert_id: id, outcome_id: 4 };
    expect((await c.call('POST', '/cm/svc/alerts/outcome', readonly, body)).status).toBe(403);
    expect((await c.call('POST', '/cm/svc/alerts/complete', readonly, { alert_id: id })).status).toBe(403);
    const a2 = await freshAlert(A2);
    const basic = await c.call('POST', '/cm/svc/alerts/outcome', basicUser, { alert_id: a2, outcome_id: 4 });
    expect(basic.status).toBe(403);
    expect(basic.body.message).toContain('Self service level');
    // Staff working the Basic merchant are refused too: the level belongs to the merchant.
    expect(
      (await c.call('POST', '/cm/svc/alerts/outcome', admin, { alert_id: a2, outcome_id: 4 })).status,
    ).toBe(403);
    expect(
      (await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: a2, outcome_id: 4 })).status,
    ).toBe(404);
    expect((await c.call('GET', `/cm/svc/alerts/history?alert_id=${a2}`, mAdmin)).status).toBe(404);
    const rows = await c.t.db.query('select outcome_id from cases.alerts where id = any($1::bigint[])', [
      [id, a2],
    ]);
    expect(rows.rows.every((r) => (r as { outcome_id: null }).outcome_id === null)).toBe(true);
  });
});

describe('POST /cm/svc/alerts/complete', () => {
  it('needs an outcome, then completes once; completed is final', async () => {
    const id = await freshAlert(A1);
    const early = await c.call('POST', '/cm/svc/alerts/complete', mAdmin, { alert_id: id });
    expect(early.status).toBe(409);
    await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: id, outcome_id: 5 });
    const done = await c.call('POST', '/cm/svc/alerts/complete', mAdmin, { alert_id: id });
    expect(done.status).toBe(200);
    expect(done.body.alert).toMatchObject({
      completed: true,
      status: 'Completed',
      completed_by: 'merchant.admin',
    });
    expect(done.body.alert.completed_date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const twice = await c.call('POST', '/cm/svc/alerts/complete', mAdmin, { alert_id: id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(`Alert ${id} is already completed.`);
    const remark = await c.call('POST', '/cm/svc/alerts/outcome', mAdmin, { alert_id: id, outcome_id: 4 });
    expect(remark.status).toBe(409);
    const h = await c.call('GET', `/cm/svc/alerts/history?alert_id=${id}`, mAdmin);
    expect(h.body.data.map((x: { action: string }) => x.action)).toEqual([
      'Completed',
      'Outcome set to Declined Transaction',
    ]);
  });
});

describe('descriptor mapping (Select MID)', () => {
  it('lists unmapped descriptors and maps one to a MID of the merchant, once', async () => {
    const list = await c.call('GET', '/cm/svc/alerts/descriptors/mapping?unmapped=1', mAdmin);
    expect(list.status).toBe(200);
    const target = list.body.data[0];
    expect(target.mid_id).toBeNull();
    const ownMid = await c.t.db.query<{ id: string; mid: string }>(
      'select id, mid from cases.mids where merchant_id = $1 order by id limit 1',
      [A1],
    );
    const otherMid = await c.t.db.query<{ id: string }>(
      'select id from cases.mids where merchant_id = $1 limit 1',
      [A2],
    );
    const body = { descriptor: target.descriptor, mid_id: Number(ownMid.rows[0]!.id), user_id: 1 };
    expect(
      (await c.call('POST', `/cm/svc/alerts/descriptors/mapping?merchant_id=${A1}`, readonly, body)).status,
    ).toBe(403);
    const wrong = await c.call('POST', `/cm/svc/alerts/descriptors/mapping?merchant_id=${A1}`, mAdmin, {
      ...body,
      mid_id: Number(otherMid.rows[0]!.id),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('mid_id');
    const missing = await c.call('POST', '/cm/svc/alerts/descriptors/mapping', mAdmin, {
      ...body,
      descriptor: 'NOPE*1',
    });
    expect(missing.status).toBe(404);
    const ok = await c.call('POST', `/cm/svc/alerts/descriptors/mapping?merchant_id=${A1}`, mAdmin, body);
    expect(ok.status).toBe(200);
    expect(ok.body.mapping).toMatchObject({ descriptor: target.descriptor, mid: ownMid.rows[0]!.mid });
    const again = await c.call('POST', `/cm/svc/alerts/descriptors/mapping?merchant_id=${A1}`, mAdmin, body);
    expect(again.status).toBe(409);
    const alerts = await c.call(
      'GET',
      `/cm/svc/alerts?date_range=2020-01-01|2099-01-01&descriptor=${encodeURIComponent(target.descriptor)}&limit=1000`,
      mAdmin,
    );
    expect(alerts.body.data.length).toBe(ok.body.alerts);
    expect(alerts.body.data.every((a: { mid: string }) => a.mid === ownMid.rows[0]!.mid)).toBe(true);
  });
});

describe('exports', () => {
  it('alerts.csv and alerts.xlsx stream the scoped rows and neutralise formula cells', async () => {
    const id = await freshAlert(A1);
    await c.t.db.query(
      `update cases.alerts set order_id = '=HYPERLINK("http://x")', customer_name = null where id = $1`,
      [id],
    );
    const headers = contextHeaders(c.t.deps.contextSecret, mAdmin);
    const csv = await c.app.inject({ method: 'GET', url: '/cm/svc/alerts.csv?sort_by=alert_id', headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(ALERT_EXPORT_COLUMNS.map((col) => col.label));
    const total = (await c.call('GET', '/cm/svc/alerts?limit=0', mAdmin)).body.pagination.total;
    expect(rows.length - 1).toBe(total);
    const idCol = rows[0]!.indexOf('Alert ID');
    const orderCol = rows[0]!.indexOf('Order ID');
    const mine = rows.find((r) => Number(r[idCol]) === id)!;
    expect(mine[orderCol]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows.slice(1).every((r) => r[0] === 'Acme Blue Sky Outfitters')).toBe(true);

    const xlsx = await c.app.inject({ method: 'GET', url: '/cm/svc/alerts.xlsx?sort_by=alert_id', headers });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload);
    const sheet = workbook.getWorksheet('Alerts')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(
      ALERT_EXPORT_COLUMNS.map((col) => col.label),
    );
    let found = false;
    for (let n = 2; n <= total + 1; n++) {
      const values = (sheet.getRow(n).values as unknown[]).slice(1);
      if (Number(values[idCol]) === id) {
        expect(values[orderCol]).toBe(`'=HYPERLINK("http://x")`);
        found = true;
      }
    }
    expect(found).toBe(true);
    const bad = await c.call('GET', `/cm/svc/alerts.csv?merchant_id=${A2}`, mAdmin);
    expect(bad.status).toBe(400);
  });
});

describe('GET /cm/merchants/{id}/express-resolve', () => {
  it('answers the embed data with a verifiable token for a merchant in scope, 400 outside it', async () => {
    const r = await c.call('GET', `/cm/merchants/${A1}/express-resolve`, mAdmin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ers_client_id: `acme-${A1}`, identity: `acme:${mAdmin.user_id}` });
    const [exp, mac] = (r.body.token as string).split('.');
    const key = createHmac('sha256', c.t.deps.contextSecret).update('express-resolve').digest();
    const expected = createHmac('sha256', key)
      .update(`acme-${A1}:${mAdmin.user_id}:${exp}`)
      .digest('base64url');
    expect(mac).toBe(expected);
    expect(Number(exp)).toBeGreaterThan(Date.now() / 1000);
    expect((await c.call('GET', `/cm/merchants/${A2}/express-resolve`, mAdmin)).status).toBe(400);
    expect(
      (await c.call('GET', `/cm/merchants/${A1}/express-resolve`, { tenant: 'acme', kind: 'system' })).status,
    ).toBe(401);
  });
});

describe('alert totals from the daily counts', () => {
  const range = '2020-01-01|2099-01-01';
  const direct = async (merchantIds: number[] | null) => {
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.alerts where tenant_id = 'acme'
       and ($1::bigint[] is null or merchant_id = any($1::bigint[]))`,
      [merchantIds],
    );
    return rows[0]!.n;
  };
  const total = async (ctx: typeof admin, query = '') =>
    (await c.call('GET', `/cm/svc/alerts?limit=0&date_range=${range}${query}`, ctx)).body.pagination.total;

  it('agree with a count of the rows as alerts are added, moved between days and merchants, and deleted', async () => {
    expect(await total(admin)).toBe(await direct(null));
    expect(await total(mAdmin)).toBe(await direct([A1]));
    const id = await freshAlert(A1);
    expect(await total(admin)).toBe(await direct(null));
    expect(await total(mAdmin)).toBe(await direct([A1]));
    // Another day and another merchant in one update; then an ordinary update that moves nothing.
    await c.t.db.query(
      `update cases.alerts set alert_date = alert_date - interval '40 days', merchant_id = $2 where id = $1`,
      [id, A2],
    );
    await c.t.db.query(`update cases.alerts set customer_name = 'Moved' where id = $1`, [id]);
    expect(await total(mAdmin)).toBe(await direct([A1]));
    expect(await total(admin, `&merchant_id=${A2}`)).toBe(await direct([A2]));
    // The 7-day default no longer holds it; the whole range still does.
    const week = (await c.call('GET', `/cm/svc/alerts?limit=0&merchant_id=${A2}`, admin)).body.pagination
      .total;
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.alerts where merchant_id = $1
       and alert_date >= (current_date - 7)::timestamp at time zone 'UTC'`,
      [A2],
    );
    expect(week).toBe(rows[0]!.n);
    await c.t.db.query(`delete from cases.alert_history where alert_id = $1`, [id]);
    await c.t.db.query(`delete from cases.alerts where id = $1`, [id]);
    expect(await total(admin)).toBe(await direct(null));
    expect(await total(admin, `&merchant_id=${A2}`)).toBe(await direct([A2]));
  });
});
