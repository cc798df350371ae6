import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILDER_MESSAGES as M,
  CASE_STATUS,
  DEMO_PASSWORD,
  REPRESENTMENT_MESSAGES,
  type BuilderCase,
  type CompiledPacket,
  type DocTypeList,
  type PacketPreview,
  type ProductList,
} from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { flatJpeg } from '../../../services/docs/src/seed/demo-jpeg';
import { evidencePdf, TEST_PAN } from '../../support/evidence-pdf';
import { callGateway } from '../../support/gateway-client';
import { pdfLines } from '../../support/pdf-text';
import { makePdf, postForm, type UploadLink } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { send } from '../storage/multipart';

/**
 * The case builder (issue 13; spec 2 §2.7, §3, §4, §5, §7, §8) through the
 * gateway, the builder, case and docs services, real Postgres and the job
 * worker: every server rule of a page save as a table of bodies, the role,
 * read-only and scope refusals, products, document types, the template copy
 * and the submission that compiles the documents with the case summary and
 * moves the case on as an upload does.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const api = (user: string, method: string, path: string, body?: unknown, tenant = 'acme') =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

interface CaseFacts {
  id: number;
  mid_id: number;
  merchant_id: number;
  reason_category: string;
}
let fraudCase: CaseFacts;
let otherCase: CaseFacts;
let category: number;
let product: { id: number; type: number };

async function newCase(where: string, exclude: number[] = []): Promise<CaseFacts> {
  const { rows } = await t.db.query<CaseFacts>(
    `select c.id, c.mid_id, c.merchant_id, cat.name as reason_category
       from cases.cases c join cases.reason_codes rc on rc.id = c.reason_code_id
       join cases.reason_code_categories cat on cat.id = rc.category_id
      where c.tenant_id = 'acme' and c.status_id = 1 and ${where} and not (c.id = any($1::bigint[]))
      order by c.id limit 1`,
    [exclude],
  );
  const r = rows[0]!;
  return {
    id: Number(r.id),
    mid_id: Number(r.mid_id),
    merchant_id: Number(r.merchant_id),
    reason_category: r.reason_category,
  };
}

const page1 = (extra: object = {}) => ({
  page: 1,
  product_id: product.id,
  sale_type: 1,
  is_shippable: true,
  is_service: false,
  is_subscription: false,
  type_id: 1,
  fields: [
    { id: 11, value: 'Jane' },
    { id: 12, value: 'Doe' },
    { id: 10, value: 'jane@example.com' },
    { id: 14, value: 'ORD-1001' },
    { id: 51, value: '2026-01-15' },
    { id: 53, value: '99.95' },
  ],
  ...extra,
});
const withField = (id: number, value: string | null) => ({
  fields: [...page1().fields.filter((f) => f.id !== id), { id, value }],
});

async function draftRows(caseId: number) {
  const { rows } = await t.db.query(
    `select (select count(*)::int from builder.case_drafts where case_id = $1) as drafts,
            (select count(*)::int from builder.case_values where case_id = $1) as vals,
            (select count(*)::int from builder.products) as products`,
    [caseId],
  );
  return rows[0];
}

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { pollingIntervalSeconds: 0.5 },
  });
  for (const [tenant, username] of [
    ['acme', 'manager'],
    ['acme', 'agent'],
    ['acme', 'merchant.admin'],
    ['acme', 'merchant.user'],
    ['acme', 'readonly'],
    ['acme', 'partner.user'],
    ['northbank', 'manager'],
  ] as const) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status).toBe(200);
    tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }
  fraudCase = await newCase(`cat.name = 'Fraud'`);
  otherCase = await newCase(`cat.name = 'Consumer Disputes' and c.merchant_id = ${fraudCase.merchant_id}`, [
    fraudCase.id,
  ]);
  const products = await api('manager', 'GET', `/api/builder/products?mid_id=${fraudCase.mid_id}&limit=999`);
  expect(products.status).toBe(200);
  const shoes = (products.json as unknown as ProductList).data.find((p) =>
    p.name.startsWith('Trail Running Shoes'),
  )!;
  product = { id: shoes.id, type: shoes.type.id };
  category = shoes.category!.id;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('the case-builder role', () => {
  it('is held by acme manager, agent and merchant.admin only', async () => {
    const who = await api('manager', 'POST', '/api/users/whoami');
    expect((who.json as { roles: string[] }).roles).toContain('case-builder');
    for (const user of ['agent', 'merchant.admin']) {
      const r = await api(user, 'POST', '/api/users/whoami');
      expect((r.json as { roles: string[] }).roles, user).toContain('case-builder');
    }
    const plain = await api('merchant.user', 'POST', '/api/users/whoami');
    expect((plain.json as { roles: string[] }).roles).not.toContain('case-builder');
    const r = await api('merchant.user', 'GET', `/api/builder/case/${fraudCase.id}`);
    expect(r.status).toBe(403);
    const put = await api('merchant.user', 'PUT', `/api/builder/case/${fraudCase.id}`, page1());
    expect(put.status).toBe(403);
    const nb = await api('manager', 'GET', `/api/builder/case/${fraudCase.id}`, undefined, 'northbank');
    expect(nb.status).toBe(403);
  });
});

describe('GET /builder/case/{id}', () => {
  it('answers page 1 prefilled from the case, with the case facts', async () => {
    const r = await api('manager', 'GET', `/api/builder/case/${fraudCase.id}?page=1`);
    expect(r.status).toBe(200);
    const bc = r.json as unknown as BuilderCase;
    expect(bc.groups.map((g) => g.id)).toEqual([1, 2]);
    const { rows } = await t.db.query<{ order_id: string | null; case_no: string }>(
      `select order_id, case_no from cases.cases where id = $1`,
      [fraudCase.id],
    );
    const orderField = bc.groups[1]!.fields.find((f) => f.id === 14)!;
    expect(orderField).toMatchObject({ name: 'order_id', is_required: true, value: rows[0]!.order_id });
    expect(bc.groups[0]!.fields.find((f) => f.id === 11)).toMatchObject({ name: 'fname', is_required: true });
    expect(bc.groups[1]!.fields.find((f) => f.id === 9)).toMatchObject({
      type: 'textarea',
      full_width: true,
    });
    expect(bc.case_no).toBe(rows[0]!.case_no);
    expect(bc.reason_category).toBe('Fraud');
    expect(bc.last_updated).toBeNull();
  });
  it('is 404 outside the caller’s scope, exactly where the case service says so, and across tenants', async () => {
    // merchant.admin sees its merchant subtree only: the builder answers as the case service does.
    const { rows } = await t.db.query<{ id: number }>(
      `select distinct on (merchant_id) id from cases.cases where tenant_id = 'acme' order by merchant_id, id`,
    );
    let outside = 0;
    let inside = 0;
    for (const r of rows) {
      const id = Number(r.id);
      const cm = await api('merchant.admin', 'GET', `/api/cm/cases/${id}`);
      const b = await api('merchant.admin', 'GET', `/api/builder/case/${id}`);
      expect(b.status, `case ${id}`).toBe(cm.status);
      if (cm.status === 404) outside++;
      if (cm.status === 200) inside++;
    }
    expect(outside).toBeGreaterThan(0);
    expect(inside).toBeGreaterThan(0);
    const { rows: nb } = await t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'northbank' order by id limit 1`,
    );
    const cross = await api('manager', 'GET', `/api/builder/case/${nb[0]!.id}`);
    expect(cross.status).toBe(404);
  });
});

describe('PUT /builder/case/{id}: the server rules', () => {
  const invalid: Array<[string, () => object, Array<number | string>]> = [
    ['sale_type missing', () => page1({ sale_type: undefined }), ['sale_type']],
    ['sale_type not a sale type', () => page1({ sale_type: 4 }), ['sale_type']],
    [
      'no product and no new product name',
      () => page1({ product_id: null, category_id: category }),
      ['new_product_name'],
    ],
    [
      'no product and no category',
      () => page1({ product_id: null, new_product_name: 'Gift Card' }),
      ['category_id'],
    ],
    [
      'no product, blank name, no category',
      () => page1({ product_id: null, new_product_name: '  ' }),
      ['new_product_name', 'category_id'],
    ],
    [
      'unknown category',
      () => page1({ product_id: null, new_product_name: 'Gift Card', category_id: 999999 }),
      ['category_id'],
    ],
    ['unknown product', () => page1({ product_id: 999999 }), ['product_id']],
    ['shippable and service', () => page1({ is_service: true }), ['is_shippable', 'is_service']],
    ['type 4 for shippable', () => page1({ type_id: 4 }), ['type_id']],
    ['type 1 for service', () => page1({ is_shippable: false, is_service: true, type_id: 1 }), ['type_id']],
    ['type 1 for neither', () => page1({ is_shippable: false, type_id: 1 }), ['type_id']],
    ['required first name empty', () => page1(withField(11, '')), [11]],
    ['required last name null', () => page1(withField(12, null)), [12]],
    ['amount not a number', () => page1(withField(53, 'ten dollars')), [53]],
    ['date not a date', () => page1(withField(51, '2026-02-30')), [51]],
    ['currency not an id', () => page1(withField(55, 'USD')), [55]],
    ['currency not one of the list', () => page1(withField(55, '999')), [55]],
    ['field of another page', () => page1(withField(75, 'TRACK1')), [75]],
    ['unknown field id', () => page1(withField(9999, 'x')), [9999]],
  ];
  it.each(invalid)('refuses %s naming the fields, changing nothing', async (_name, make, ids) => {
    const before = await draftRows(fraudCase.id);
    const r = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, make());
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.message).toBe(M.invalid);
    const fields = (r.json.data as { fields: Array<{ id: number | string; errors: string[] }> }).fields;
    expect(fields.map((f) => f.id).sort()).toEqual([...ids].sort());
    for (const f of fields) expect(f.errors.length).toBeGreaterThan(0);
    expect(await draftRows(fraudCase.id)).toEqual(before);
  });
  it('refuses a body of the wrong shape with a 400 naming the field', async () => {
    const r = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, {
      ...page1(),
      sale_type: 'web',
    });
    expect(r.status).toBe(400);
    const r2 = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, { ...page1(), page: 9 });
    expect(r2.status).toBe(400);
  });
  it('refuses page 2 before page 1 is saved', async () => {
    const r = await api('manager', 'PUT', `/api/builder/case/${otherCase.id}`, { page: 2, fields: [] });
    expect(r.status).toBe(409);
    expect(r.json.message).toBe(M.firstPage);
  });
  it('refuses read-only users and users outside the case’s scope', async () => {
    const ro = await api('readonly', 'PUT', `/api/builder/case/${fraudCase.id}`, page1());
    expect(ro.status).toBe(403);
    const nb = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, page1(), 'northbank');
    expect(nb.status).toBe(403);
    const none = await api('manager', 'PUT', `/api/builder/case/2147483647`, page1());
    expect(none.status).toBe(404);
  });

  const valid: Array<[string, () => object, number]> = [
    ['an existing shippable product', () => page1(), 1],
    [
      'a new digital product with a category',
      () =>
        page1({
          product_id: null,
          new_product_name: 'E-book: guide',
          category_id: category,
          is_shippable: false,
          type_id: 2,
        }),
      2,
    ],
    [
      'a service, type computed when not given',
      () => page1({ is_shippable: false, is_service: true, type_id: undefined }),
      4,
    ],
  ];
  it.each(valid)('saves page 1 with %s', async (_name, make, type) => {
    const r = await api('agent', 'PUT', `/api/builder/case/${otherCase.id}`, make());
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.type_id).toBe(type);
    expect((r.json.last_updated as { username: string }).username).toBe('agent');
  });

  it('saves page 1 and page 2 (groups by answers and reason category), then reads them back', async () => {
    const r1 = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, page1());
    expect(r1.status, JSON.stringify(r1.json)).toBe(200);
    const p2 = (await api('manager', 'GET', `/api/builder/case/${fraudCase.id}?page=2`))
      .json as unknown as BuilderCase;
    // card always; shipping and product for shippable goods; device/IP for fraud and ecommerce.
    expect(p2.groups.map((g) => g.id)).toEqual([5, 3, 6, 10]);
    const missing = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, {
      page: 2,
      fields: [{ id: 70, value: '1 Main St' }],
    });
    expect(missing.status).toBe(400);
    expect((missing.json.data as { fields: Array<{ id: number }> }).fields.map((f) => f.id).sort()).toEqual([
      71, 73, 75,
    ]);
    const badExp = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, {
      page: 2,
      fields: [
        { id: 70, value: '1 Main St' },
        { id: 71, value: 'Springfield' },
        { id: 73, value: '12345' },
        { id: 75, value: '1Z999' },
        { id: 66, value: '13/27' },
      ],
    });
    expect((badExp.json.data as { fields: Array<{ id: number }> }).fields.map((f) => f.id)).toEqual([66]);
    const ok = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, {
      page: 2,
      fields: [
        { id: 70, value: '1 Main St' },
        { id: 71, value: 'Springfield' },
        { id: 73, value: '12345' },
        { id: 75, value: '1Z999' },
        { id: 66, value: '09/27' },
        { id: 80, value: '203.0.113.7' },
      ],
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    const back = (await api('manager', 'GET', `/api/builder/case/${fraudCase.id}?page=2`))
      .json as unknown as BuilderCase;
    const values = Object.fromEntries(back.groups.flatMap((g) => g.fields).map((f) => [f.id, f.value]));
    expect(values).toMatchObject({ 70: '1 Main St', 75: '1Z999', 66: '09/27', 80: '203.0.113.7' });
    expect(back.product?.id).toBe(product.id);
    expect(back.last_updated?.username).toBe('manager');
  });
});

describe('products, categories and document types', () => {
  it('lists and searches the MID’s products, creates one, refuses a foreign MID', async () => {
    const s = await api(
      'manager',
      'GET',
      `/api/builder/products?mid_id=${fraudCase.mid_id}&search=headphones`,
    );
    expect((s.json as unknown as ProductList).data.map((p) => p.name)).toEqual([
      'Wireless Headphones: noise cancelling',
    ]);
    const created = await api('manager', 'POST', '/api/builder/products', {
      mid_id: fraudCase.mid_id,
      name: 'Yoga Mat',
      description: 'Non-slip',
      type: 1,
      category,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({ name: 'Yoga Mat', type: 1 });
    const bad = await api('manager', 'POST', '/api/builder/products', {
      mid_id: fraudCase.mid_id,
      name: 'X',
      type: 3,
      category,
    });
    expect(bad.status).toBe(400);
    const noCat = await api('manager', 'POST', '/api/builder/products', {
      mid_id: fraudCase.mid_id,
      name: 'X',
      type: 1,
      category: 999999,
    });
    expect(noCat.status).toBe(400);
    expect((noCat.json.data as { fields: Array<{ id: string }> }).fields[0]!.id).toBe('category');
    const ro = await api('readonly', 'POST', '/api/builder/products', {
      mid_id: fraudCase.mid_id,
      name: 'X',
      type: 1,
      category,
    });
    expect(ro.status).toBe(403);
    const unknownMid = await api('manager', 'GET', `/api/builder/products?mid_id=2147483646`);
    expect(unknownMid.status).toBe(404);
    const cats = await api('manager', 'GET', '/api/builder/products/categories?search=tick');
    expect((cats.json.data as Array<{ name: string }>).map((c) => c.name)).toEqual(['Event Tickets']);
  });
  it('marks proof of delivery required for a shippable draft', async () => {
    const r = await api('manager', 'GET', `/api/builder/gen/doctypes?case_id=${fraudCase.id}&limit=999`);
    const types = (r.json as unknown as DocTypeList).data;
    expect(types.find((d) => d.id === 1)?.required).toBe(true);
    expect(types.find((d) => d.id === 2)?.required).toBe(true);
    expect(types.find((d) => d.id === 9)?.required).toBe(false);
  });
});

async function uploadJpeg(caseId: number, user = 'manager') {
  const jpg = flatJpeg(320, 240);
  const link = await api(user, 'GET', `/api/docs/builder/upload-link?case_id=${caseId}&filename=receipt.jpg`);
  expect(link.status, JSON.stringify(link.json)).toBe(200);
  const form = link.json as unknown as UploadLink;
  const posted = await postForm(stack.gatewayUrl, 'acme', form, jpg, 'receipt.jpg', 'image/jpeg');
  expect([200, 201, 204]).toContain(posted.status);
  return { key: form.fields.key!, size: jpg.length };
}
const file = (f: { key: string; size: number }, type: number, order: number) => ({
  s3_key: f.key,
  filename: `doc-${order}.jpg`,
  content_type: 'image/jpeg',
  size: f.size,
  order_num: order,
  upload_doc_type_id: type,
});

describe('template copy and submission', () => {
  it('copies the answers to open cases with the same card number only', async () => {
    // A second open case with the same card as the fraud case.
    const { rows } = await t.db.query<{ id: number }>(
      `update cases.cases set cc_bin = src.cc_bin, cc_last_four = src.cc_last_four
         from (select cc_bin, cc_last_four from cases.cases where id = $1) src
        where cases.cases.id = (select id from cases.cases where tenant_id = 'acme' and status_id = 1
                                  and merchant_id = $2 and id not in ($1, $3) order by id limit 1)
        returning cases.cases.id`,
      [fraudCase.id, fraudCase.merchant_id, otherCase.id],
    );
    const twin = Number(rows[0]!.id);
    const related = await api('manager', 'GET', `/api/builder/case/${fraudCase.id}/related`);
    expect((related.json.data as Array<{ id: number }>).map((r) => r.id)).toContain(twin);
    const refused = await api('manager', 'POST', `/api/builder/case/${fraudCase.id}/template`, {
      case_ids: [otherCase.id],
    });
    expect(refused.status).toBe(400);
    const ro = await api('readonly', 'POST', `/api/builder/case/${fraudCase.id}/template`, {
      case_ids: [twin],
    });
    expect(ro.status).toBe(403);
    const copied = await api('manager', 'POST', `/api/builder/case/${fraudCase.id}/template`, {
      case_ids: [twin],
    });
    expect(copied.status, JSON.stringify(copied.json)).toBe(200);
    const back = (await api('manager', 'GET', `/api/builder/case/${twin}?page=2`))
      .json as unknown as BuilderCase;
    const values = Object.fromEntries(back.groups.flatMap((g) => g.fields).map((f) => [f.id, f.value]));
    expect(values[75]).toBe('1Z999');
    // The case's own facts stay its own.
    const { rows: own } = await t.db.query<{ case_no: string }>(
      `select case_no from cases.cases where id = $1`,
      [twin],
    );
    expect(back.case_no).toBe(own[0]!.case_no);
  });

  it('refuses a submission missing a required document type, a PDF, a foreign or stale key; changes nothing', async () => {
    const before = await t.db.query(
      `select count(*)::int as n from docs.representment_versions where case_id = $1`,
      [fraudCase.id],
    );
    const a = await uploadJpeg(fraudCase.id);
    const onlyInvoice = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0)],
      templates: [],
    });
    expect(onlyInvoice.status).toBe(400);
    expect(onlyInvoice.json.message).toBe(M.missingDocType('Proof of Delivery'));
    const badType = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 8, 0)],
      templates: [],
    });
    expect(badType.json.message).toBe(M.selectDocType);
    const ro = await api('readonly', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0)],
      templates: [],
    });
    expect(ro.status).toBe(403);
    const pdf = await makePdf(1);
    const link = await api(
      'manager',
      'GET',
      `/api/docs/builder/upload-link?case_id=${fraudCase.id}&filename=x.pdf`,
    );
    const form = link.json as unknown as UploadLink;
    const posted = await postForm(stack.gatewayUrl, 'acme', form, pdf, 'x.pdf', 'image/jpeg');
    // The store takes the bytes (the form names image/jpeg); the docs service reads them and refuses a
    // PDF uploaded through a JPEG link (a PDF link takes it: 'takes PDF documents' below).
    expect([200, 201, 204]).toContain(posted.status);
    const asPdf = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0), file({ key: form.fields.key!, size: pdf.length }, 2, 1)],
      templates: [],
    });
    expect(asPdf.status).toBe(400);
    expect(asPdf.json.message).toBe(M.onlyJpgOrPdf(10));
    const foreign = await uploadJpeg(otherCase.id);
    const wrongCase = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0), file(foreign, 2, 1)],
      templates: [],
    });
    expect(wrongCase.status).toBe(400);
    // A link expired past its grace, as the representment upload refuses it: the hourly purge may
    // delete its file at any moment, and the compile would then fail.
    const stale = await uploadJpeg(fraudCase.id);
    await t.db.query(`update docs.representment_upload_links set expires_at = $2 where s3_key = $1`, [
      stale.key,
      new Date(Date.now() - 2 * 3_600_000).toISOString(),
    ]);
    const late = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0), file(stale, 2, 1)],
      templates: [],
    });
    expect(late.status).toBe(400);
    expect(late.json.message).toBe(REPRESENTMENT_MESSAGES.linkExpired);
    const after = await t.db.query(
      `select count(*)::int as n from docs.representment_versions where case_id = $1`,
      [fraudCase.id],
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('submits: summary first, documents compiled, the case moves on to TransportCompleted', async () => {
    const a = await uploadJpeg(fraudCase.id);
    const b = await uploadJpeg(fraudCase.id);
    const r = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: fraudCase.id,
      files: [file(a, 1, 0), file(b, 2, 1)],
      templates: [],
      comment: 'Built with the case builder',
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ message: M.submitted, version: 1, status_id: CASE_STATUS.DocCompiling });
    const { rows: docs } = await t.db.query<{ filename: string; content_type: string }>(
      `select d.filename, d.content_type from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
      [fraudCase.id],
    );
    expect(docs.map((d) => d.filename)).toEqual([
      `case-summary-${fraudCase.id}.pdf`,
      'doc-0.jpg',
      'doc-1.jpg',
    ]);
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline) {
      const { rows } = await t.db.query<{ status_id: number }>(
        `select status_id from cases.cases where id = $1`,
        [fraudCase.id],
      );
      status = rows[0]!.status_id;
      if (status === CASE_STATUS.TransportCompleted) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(status).toBe(CASE_STATUS.TransportCompleted);
    // Once submitted, the builder refuses further saves of that case.
    const again = await api('manager', 'PUT', `/api/builder/case/${fraudCase.id}`, page1());
    expect(again.status).toBe(409);
  }, 60_000);
});

describe('PDF documents (issue 29)', () => {
  /** An upload form asked for a type, then the bytes posted under that type. */
  async function upload(caseId: number, bytes: Uint8Array, contentType: 'image/jpeg' | 'application/pdf') {
    const name = contentType === 'application/pdf' ? 'statement.pdf' : 'receipt.jpg';
    const link = await api(
      'manager',
      'GET',
      `/api/docs/builder/upload-link?case_id=${caseId}&filename=${name}&content_type=${encodeURIComponent(contentType)}`,
    );
    expect(link.status, JSON.stringify(link.json)).toBe(200);
    const form = link.json as unknown as UploadLink;
    const posted = await postForm(stack.gatewayUrl, 'acme', form, Buffer.from(bytes), name, contentType);
    expect([200, 201, 204]).toContain(posted.status);
    return { key: form.fields.key!, size: bytes.length, name, contentType };
  }
  const doc = (
    f: { key: string; size: number; name: string; contentType: string },
    type: number,
    order: number,
    declared = f.contentType,
  ) => ({
    s3_key: f.key,
    filename: f.name,
    content_type: declared,
    size: f.size,
    order_num: order,
    upload_doc_type_id: type,
  });
  const versions = async (caseId: number) =>
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from docs.representment_versions where case_id = $1`,
        [caseId],
      )
    ).rows[0]!.n;

  it('takes PDF documents beside JPEGs with the upload checks; a PDF declared as a JPEG, or broken, is refused', async () => {
    const c = await newCase(`cat.name = 'Fraud' and c.merchant_id = ${fraudCase.merchant_id}`, [
      fraudCase.id,
      otherCase.id,
    ]);
    const saved = await api('manager', 'PUT', `/api/builder/case/${c.id}`, page1());
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const jpg = await upload(c.id, flatJpeg(320, 240), 'image/jpeg');
    const pdf = await upload(c.id, await makePdf(2), 'application/pdf');

    // A PDF declared as a JPEG in the submission, a broken PDF, an encrypted one: refused, nothing stored.
    const broken = await upload(c.id, Buffer.from('%PDF-1.7\n1 0 obj broken'), 'application/pdf');
    const locked = await upload(c.id, await makePdf(1, { encrypt: true }), 'application/pdf');
    for (const [files, message] of [
      [[doc(jpg, 1, 0), doc(pdf, 2, 1, 'image/jpeg')], M.onlyJpgOrPdf(10)],
      [[doc(jpg, 1, 0), doc(broken, 2, 1)], REPRESENTMENT_MESSAGES.corruptPdf],
      [[doc(jpg, 1, 0), doc(locked, 2, 1)], REPRESENTMENT_MESSAGES.corruptPdf],
    ] as const) {
      const r = await api('manager', 'POST', '/api/docs/builder/upload', {
        case_id: c.id,
        files,
        templates: [],
      });
      expect(r.status, JSON.stringify(r.json)).toBe(400);
      expect(r.json.message).toBe(message);
    }
    expect(await versions(c.id)).toBe(0);

    const ok = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: c.id,
      files: [doc(jpg, 1, 0), doc(pdf, 2, 1)],
      templates: [],
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    const { rows } = await t.db.query<{ filename: string; content_type: string; pages: number }>(
      `select d.filename, d.content_type, d.pages from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
      [c.id],
    );
    expect(rows.map((d) => [d.filename, d.content_type])).toEqual([
      [`case-summary-${c.id}.pdf`, 'application/pdf'],
      ['receipt.jpg', 'image/jpeg'],
      ['statement.pdf', 'application/pdf'],
    ]);
    expect(rows[2]!.pages).toBe(2);
  }, 60_000);

  it('masks a card number and turns a page in the preview; the submitted packet is the preview byte for byte', async () => {
    const c = await newCase(`cat.name = 'Fraud' and c.merchant_id = ${fraudCase.merchant_id}`, [
      fraudCase.id,
      otherCase.id,
    ]);
    expect((await api('manager', 'PUT', `/api/builder/case/${c.id}`, page1())).status).toBe(200);
    const jpg = await upload(c.id, flatJpeg(320, 240), 'image/jpeg');
    const statement = await evidencePdf([[`Paid with card ${TEST_PAN}`], ['Order 1001 shipped']]);
    const pdf = await upload(c.id, statement, 'application/pdf');
    const packet = (ops: object[] = []) => ({
      case_id: c.id,
      files: [
        { ...doc(jpg, 1, 0), ...(ops.length ? { page_ops: [{ op: 'rotate', page: 0, degrees: 90 }] } : {}) },
        { ...doc(pdf, 2, 1), ...(ops.length ? { page_ops: ops } : {}) },
      ],
      templates: [],
    });
    const first = await api('manager', 'POST', '/api/docs/builder/preview', packet());
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const pan = (first.json as unknown as PacketPreview).checks.find((x) => x.code === 'pan')!;
    expect(pan.level).toBe('blocked');
    // Unmasked, the submission is refused as the upload's is; nothing is stored.
    const refused = await api('manager', 'POST', '/api/docs/builder/upload', packet());
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe(pan.message);
    expect(await versions(c.id)).toBe(0);

    const ops = [{ op: 'mask', page: pan.mask!.page, boxes: pan.mask!.boxes }];
    const masked = (await api('manager', 'POST', '/api/docs/builder/preview', packet(ops)))
      .json as unknown as PacketPreview;
    expect(masked.checks.filter((x) => x.level === 'blocked')).toEqual([]);
    expect(masked.page_map.map((p) => [p.document, p.rotation, p.masked])).toEqual([
      ...masked.page_map.filter((p) => p.document === 0).map(() => [0, 0, false]),
      [1, 90, false],
      [2, 0, true],
      [2, 0, false],
    ]);
    const previewPdf = await send(`${stack.gatewayUrl}${masked.pdf_path}`, {
      headers: { host: 'acme.localhost', authorization: `Bearer ${tokens.get('acme:manager')}` },
    });
    expect(previewPdf.status).toBe(200);

    const warnings = masked.checks.filter((x) => x.level === 'warning');
    const ok = await api('manager', 'POST', '/api/docs/builder/upload', {
      ...packet(ops),
      ...(warnings.length ? { accepted_warnings: { note: 'Checked', sha256: masked.sha256 } } : {}),
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    await expect
      .poll(
        async () =>
          (await t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [c.id]))
            .rows[0]!.status_id,
        { timeout: 30_000 },
      )
      .toBe(CASE_STATUS.TransportCompleted);
    const compiled = (await api('manager', 'GET', `/api/docs/representment/${c.id}/packet`))
      .json as unknown as CompiledPacket;
    // The case summary is dated by the answers' last save, not by when it is made: the same bytes twice.
    expect(compiled.sha256).toBe(masked.sha256);
    const bytes = await send(`${stack.gatewayUrl}${compiled.pdf_path}`, {
      headers: { host: 'acme.localhost', authorization: `Bearer ${tokens.get('acme:manager')}` },
    });
    expect(Buffer.from(bytes.body).equals(Buffer.from(previewPdf.body))).toBe(true);
    // The document types attached are the case's evidence kinds for its win odds (issue 33).
    const evidence = await t.db.query<{ kinds_mask: number }>(
      `select kinds_mask from cases.case_evidence where case_id = $1`,
      [c.id],
    );
    expect(evidence.rows[0]?.kinds_mask).toBe((1 << 1) | (1 << 2));
  }, 90_000);

  it('names the lookup answers in the case summary (currency, reason code, countries), never their ids', async () => {
    const c = await newCase(`cat.name = 'Fraud' and c.merchant_id = ${fraudCase.merchant_id}`, [
      fraudCase.id,
      otherCase.id,
    ]);
    const named = async (sql: string, id: number) =>
      (await t.db.query<{ name: string }>(sql, [id])).rows[0]!.name;
    const gbp = await named(`select code as name from cases.currencies where id = $1`, 3);
    const ireland = await named(`select name from cases.countries where id = $1`, 8);
    const germany = await named(`select name from cases.countries where id = $1`, 4);
    const rc = await named(
      `select code || ' - ' || description as name from cases.reason_codes where id = $1`,
      222,
    );
    expect([gbp, ireland, germany, rc]).toEqual(['GBP', 'Ireland', 'Germany', '4842 - Late Presentment']);
    // A subscription: page 2 has the Case History group, with its Reason Code select.
    const saved1 = await api('manager', 'PUT', `/api/builder/case/${c.id}`, {
      ...page1({ is_subscription: true }),
      fields: [...page1().fields, { id: 55, value: '3' }, { id: 65, value: '8' }],
    });
    expect(saved1.status, JSON.stringify(saved1.json)).toBe(200);
    const saved2 = await api('manager', 'PUT', `/api/builder/case/${c.id}`, {
      page: 2,
      fields: [
        { id: 70, value: '1 Main St' },
        { id: 71, value: 'Springfield' },
        { id: 73, value: '12345' },
        { id: 75, value: '1Z999' },
        { id: 117, value: '4' },
        { id: 49, value: '222' },
      ],
    });
    expect(saved2.status, JSON.stringify(saved2.json)).toBe(200);
    const receipt = await upload(c.id, flatJpeg(320, 240), 'image/jpeg');
    const delivery = await upload(c.id, flatJpeg(320, 240), 'image/jpeg');
    const packet = { case_id: c.id, files: [doc(receipt, 1, 0), doc(delivery, 2, 1)], templates: [] };
    const preview = await api('manager', 'POST', '/api/docs/builder/preview', packet);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    const previewed = preview.json as unknown as PacketPreview;
    const pdf = await send(`${stack.gatewayUrl}${previewed.pdf_path}`, {
      headers: { host: 'acme.localhost', authorization: `Bearer ${tokens.get('acme:manager')}` },
    });
    expect(pdf.status).toBe(200);

    // The summary is the packet's first page: each lookup answer by its name, as the portal shows it.
    const lines = await pdfLines(pdf.body);
    expect(lines).toEqual(
      expect.arrayContaining([
        `Currency | ${gbp}`,
        `Billing Country | ${ireland}`,
        `Shipping Country | ${germany}`,
        `Reason Code | ${rc}`,
      ]),
    );
    for (const [label, id] of [
      ['Currency', '3'],
      ['Billing Country', '8'],
      ['Shipping Country', '4'],
      ['Reason Code', '222'],
    ])
      expect(lines, label).not.toContain(`${label} | ${id}`);

    // Named the same way when submitted: the compiled packet is the preview byte for byte.
    const warnings = previewed.checks.filter((x) => x.level === 'warning');
    const ok = await api('manager', 'POST', '/api/docs/builder/upload', {
      ...packet,
      ...(warnings.length ? { accepted_warnings: { note: 'Checked', sha256: previewed.sha256 } } : {}),
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    await expect
      .poll(
        async () =>
          (await t.db.query<{ status_id: number }>(`select status_id from cases.cases where id = $1`, [c.id]))
            .rows[0]!.status_id,
        { timeout: 30_000 },
      )
      .toBe(CASE_STATUS.TransportCompleted);
    const compiled = (await api('manager', 'GET', `/api/docs/representment/${c.id}/packet`))
      .json as unknown as CompiledPacket;
    expect(compiled.sha256).toBe(previewed.sha256);
  }, 90_000);
});
