import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { CASE_EXPORT_COLUMNS, demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';
import { parseCsv } from '../../support/csv';

// exceljs is a dependency of the case service, not of the tests package: load it from there.
interface Sheet {
  actualRowCount: number;
  rowCount: number;
  getRow(n: number): { values: unknown; getCell(n: number): { value: unknown } };
}
interface WorkbookReader {
  xlsx: { load(data: Buffer): Promise<unknown> };
  getWorksheet(name: string): Sheet | undefined;
}
const ExcelJS = createRequire(new URL('../../../services/case/package.json', import.meta.url))('exceljs') as {
  Workbook: new () => WorkbookReader;
};

let c: CaseApp;
const admin = demoCtx('acme', 'admin');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

describe('exports', () => {
  it('GET /cm/cases.csv streams every matching row with the 24 default columns', async () => {
    const r = await c.app.inject({
      method: 'GET',
      url: '/cm/cases.csv?filter_group=working_cases&sort_by=id',
      headers: (await import('../../support/context')).contextHeaders(c.t.deps.contextSecret, admin),
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/csv');
    const rows = parseCsv(r.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(CASE_EXPORT_COLUMNS.map((col) => col.label));
    expect(rows[0]).toHaveLength(24);
    const { rows: expected } = await c.t.db.query<{ id: number; dispute_amt: number }>(
      `select id, dispute_amt from cases.cases where tenant_id = 'acme' and status_group_id in (1, 2) order by id`,
    );
    expect(rows.length - 1).toBe(expected.length);
    const idCol = rows[0]!.indexOf('CB ID');
    const amtCol = rows[0]!.indexOf('Dispute Amt');
    expect(rows.slice(1).map((x) => Number(x[idCol]))).toEqual(expected.map((x) => Number(x.id)));
    expect(rows[1]![amtCol]).toBe(Number(expected[0]!.dispute_amt).toFixed(2));
  });

  it('honours headers[] and header_labels[] and answers 400 for an unknown column', async () => {
    const { contextHeaders } = await import('../../support/context');
    const url =
      '/cm/cases.csv?export_type=page&limit=10&headers[]=id&headers[]=merchant_name&headers[]=dispute_amt&header_labels[]=id:Case&header_labels[]=dispute_amt:Amount';
    const r = await c.app.inject({
      method: 'GET',
      url,
      headers: contextHeaders(c.t.deps.contextSecret, demoCtx('acme', 'merchant.admin')),
    });
    const rows = parseCsv(r.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['Case', 'Merchant', 'Amount']);
    expect(rows).toHaveLength(11);
    expect(rows.slice(1).every((x) => x[1] === 'Acme Blue Sky Outfitters')).toBe(true);
    const bad = await c.call('GET', '/cm/cases.csv?headers[]=password_hash', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('headers');
    const badSort = await c.call('GET', '/cm/cases.xlsx?sort_by=nope', admin);
    expect(badSort.status).toBe(400);
  });

  it('leaves out the columns the merchant lacks the feature for, and refuses to export them', async () => {
    const { contextHeaders } = await import('../../support/context');
    // merchantA2 has no features: no outcome verdicts; its user and staff working it get the same columns.
    const a2 = demoMerchantId(ACME, 'merchantA2');
    for (const [ctx, query] of [
      [demoCtx('acme', 'federated'), ''],
      [admin, `&client_id=${a2}`],
    ] as const) {
      const r = await c.app.inject({
        method: 'GET',
        url: `/cm/cases.csv?export_type=page&limit=5${query}`,
        headers: contextHeaders(c.t.deps.contextSecret, ctx),
      });
      expect(r.statusCode).toBe(200);
      const header = parseCsv(r.body.replace(/^\uFEFF/, ''))[0]!;
      expect(header).toHaveLength(23);
      expect(header).not.toContain('Outcome');
      const refused = await c.call('GET', `/cm/cases.xlsx?headers[]=id&headers[]=verdict${query}`, ctx);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        "headers: column 'verdict' needs the merchant feature Outcome Verdicts.",
      );
    }
    // merchantA1 has outcome verdicts but not the platform: processor is refused, verdict allowed.
    const a1User = demoCtx('acme', 'merchant.admin');
    expect((await c.call('GET', '/cm/cases.csv?headers[]=verdict&limit=1', a1User)).status).toBe(200);
    expect((await c.call('GET', '/cm/cases.csv?headers[]=processor&limit=1', a1User)).status).toBe(403);
  });

  it('GET /cm/cases.xlsx streams a real workbook with the matching rows', async () => {
    const { contextHeaders } = await import('../../support/context');
    const r = await c.app.inject({
      method: 'GET',
      url: `/cm/cases.xlsx?client_id=${demoMerchantId(ACME, 'partnerA')}&sort_by=date_post&sort_order=desc`,
      headers: contextHeaders(c.t.deps.contextSecret, admin),
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(r.rawPayload);
    const sheet = workbook.getWorksheet('Chargebacks')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(CASE_EXPORT_COLUMNS.map((col) => col.label));
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.cases where merchant_id in (select id from cases.merchants where id = $1 or parent_id = $1)`,
      [demoMerchantId(ACME, 'partnerA')],
    );
    expect(sheet.actualRowCount - 1).toBe(rows[0]!.n);
    const posts = [];
    for (let i = 2; i <= sheet.rowCount; i++) posts.push(String(sheet.getRow(i).getCell(13).value));
    expect([...posts].sort().reverse()).toEqual(posts);
    expect(typeof sheet.getRow(2).getCell(14).value).toBe('number');
  });
});
