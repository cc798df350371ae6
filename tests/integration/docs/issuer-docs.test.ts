import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, type CaseRow } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { DocsClient } from './docs-helpers';

/**
 * Issuer documents (spec 2 §3 issuer_docs, §7 GET /docs/issuer-doc/{caseId}/{docId}):
 * the case service lists them on case rows for merchants with feature 1 only;
 * the docs service answers a short-lived link to the stored file.
 */
let t: TestEnv;
let stack: Stack;
let c: DocsClient;
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1'); // feature 1
const A2 = demoMerchantId(ACME, 'merchantA2'); // no features

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  c = new DocsClient(stack);
  for (const u of ['manager', 'merchant.admin', 'partner.user']) await c.signIn('acme', u);
  await c.signIn('northbank', 'manager');
});
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

async function caseWithDocs(merchantId: number) {
  const { rows } = await t.db.query<{ case_id: string; ids: string[] }>(
    `select i.case_id, array_agg(i.id order by i.date_created, i.id) as ids from cases.issuer_docs i
     join cases.cases c on c.id = i.case_id where c.merchant_id = $1 group by i.case_id order by i.case_id limit 1`,
    [merchantId],
  );
  return rows[0] ? { caseId: Number(rows[0].case_id), ids: rows[0].ids.map(Number) } : null;
}

describe('issuer documents', () => {
  it('are seeded only for merchants with feature 1, each with its file under the same id', async () => {
    const { rows } = await t.db.query<{ bad: number; n: number; missing: number }>(
      `select count(*)::int as n,
         count(*) filter (where not exists (select 1 from cases.merchant_features f
           where f.merchant_id = c.merchant_id and f.feature_id = 1))::int as bad,
         count(*) filter (where d.id is null)::int as missing
       from cases.issuer_docs i join cases.cases c on c.id = i.case_id left join docs.issuer_docs d on d.id = i.id`,
    );
    expect(rows[0]!.n).toBeGreaterThan(100);
    expect(rows[0]!.bad).toBe(0);
    expect(rows[0]!.missing).toBe(0);
    expect(await caseWithDocs(A2)).toBeNull();
  });

  it('fill the case rows and open as a short-lived link', async () => {
    const doc = (await caseWithDocs(A1))!;
    const detail = await c.api('acme', 'merchant.admin', 'GET', `/api/cm/cases/${doc.caseId}`);
    expect(detail.status).toBe(200);
    expect((detail.json as unknown as CaseRow).issuer_docs.map((d) => d.id)).toEqual(doc.ids);
    // The list rows carry them too: a page of the newest cases of the merchant has documented cases.
    const rows = await c.api(
      'acme',
      'manager',
      'GET',
      `/api/cm/cases?limit=100&merchant_id=${A1}&sort_by=date_post&sort_order=desc`,
    );
    expect(rows.status).toBe(200);
    const listed = (rows.json.data as CaseRow[]).filter((r) => r.issuer_docs.length);
    expect(listed.length).toBeGreaterThan(0);
    for (const r of listed) {
      const ids = await t.db.query<{ id: string }>(
        `select id from cases.issuer_docs where case_id = $1 order by date_created, id`,
        [r.id],
      );
      expect(r.issuer_docs.map((d) => d.id)).toEqual(ids.rows.map((x) => Number(x.id)));
    }

    const link = await c.api(
      'acme',
      'merchant.admin',
      'GET',
      `/api/docs/issuer-doc/${doc.caseId}/${doc.ids[0]}`,
    );
    expect(link.status, JSON.stringify(link.json)).toBe(200);
    expect(link.json.filename).toMatch(/^issuer-doc-.*\.pdf$/);
    const file = await c.download('acme', link.json.uri as string);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(String(file.headers['content-disposition'])).toContain(link.json.filename as string);
  });

  it("answer 404 for another case's document, a case out of scope or another tenant", async () => {
    const doc = (await caseWithDocs(A1))!;
    const other = await t.db.query<{ id: string }>(
      `select id from cases.issuer_docs where case_id <> $1 limit 1`,
      [doc.caseId],
    );
    expect(
      (await c.api('acme', 'manager', 'GET', `/api/docs/issuer-doc/${doc.caseId}/${other.rows[0]!.id}`))
        .status,
    ).toBe(404);
    expect((await c.api('acme', 'manager', 'GET', `/api/docs/issuer-doc/${doc.caseId}/999999`)).status).toBe(
      404,
    );
    expect(
      (await c.api('northbank', 'manager', 'GET', `/api/docs/issuer-doc/${doc.caseId}/${doc.ids[0]}`)).status,
    ).toBe(404);
  });

  it('are none for merchants without feature 1', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      `select c.id from cases.cases c where c.merchant_id = $1 order by c.date_post desc limit 1`,
      [A2],
    );
    const detail = await c.api('acme', 'partner.user', 'GET', `/api/cm/cases/${rows[0]!.id}`);
    expect(detail.status).toBe(200);
    expect((detail.json as unknown as CaseRow).issuer_docs).toEqual([]);
    const list = await c.api('acme', 'partner.user', 'GET', `/api/cm/cases?limit=50&merchant_id=${A2}`);
    expect(list.status).toBe(200);
    for (const r of list.json.data as CaseRow[]) expect(r.issuer_docs).toEqual([]);
    // Switching feature 1 off hides the documents from rows and links alike.
    const doc = (await caseWithDocs(A1))!;
    await t.db.query(`delete from cases.merchant_features where merchant_id = $1 and feature_id = 1`, [A1]);
    try {
      const d = await c.api('acme', 'merchant.admin', 'GET', `/api/cm/cases/${doc.caseId}`);
      expect((d.json as unknown as CaseRow).issuer_docs).toEqual([]);
      expect(
        (await c.api('acme', 'merchant.admin', 'GET', `/api/docs/issuer-doc/${doc.caseId}/${doc.ids[0]}`))
          .status,
      ).toBe(404);
    } finally {
      await t.db.query(
        `insert into cases.merchant_features (tenant_id, merchant_id, feature_id) values ('acme', $1, 1)`,
        [A1],
      );
    }
  });
});
