import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, TEMPLATE_MESSAGES, type Template } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { openObjectStore, type ObjectStore } from '@portal/storage';
import { resolveDocsLinkSecret } from '../../../services/docs/src/files/signed-links';
import { flatJpeg } from '../../../services/docs/src/seed/demo-jpeg';
import { textPdf } from '../../../services/docs/src/seed/seed-templates';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { DocsClient, encryptedPdf } from './docs-helpers';

/**
 * Document templates (spec 2 §7 'Documents: templates') through the gateway
 * with the real object store: the seeded library, upload link -> form ->
 * create with the server's own type check and page count, soft delete, scope
 * by the case service, and every refusal leaving nothing stored.
 */
let t: TestEnv;
let stack: Stack;
let store: ObjectStore;
let c: DocsClient;
const ACME = demoTenant('acme');
const NORTHBANK = demoTenant('northbank');
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');
const B1 = demoMerchantId(ACME, 'merchantB1');

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  store = await openObjectStore(t.env, t.deps.log, { linkSecret: resolveDocsLinkSecret(t.env) });
  c = new DocsClient(stack);
  for (const u of ['manager', 'merchant.admin', 'partner.user', 'readonly']) await c.signIn('acme', u);
  await c.signIn('northbank', 'manager');
});
afterAll(async () => {
  await store?.close();
  await stack?.close();
  await t?.close();
});

const list = (user: string, merchantId: number, extra = '') =>
  c.api('acme', user, 'GET', `/api/docs/templates?merchant_id=${merchantId}${extra}`);

/** Upload link + form post as `user`; the stored key. */
async function upload(user: string, data: Buffer, type: string, merchantId = A1, tenant = 'acme') {
  const link = await c.api(
    tenant,
    user,
    'GET',
    `/api/docs/templates/upload-link?merchant_id=${merchantId}&filename=file&content_type=${encodeURIComponent(type)}`,
  );
  expect(link.status, JSON.stringify(link.json)).toBe(200);
  const fields = link.json.fields as Record<string, string>;
  expect(await c.postForm(tenant, { url: link.json.url as string, fields }, data, type)).toBe(204);
  return fields.key!;
}

const body = (s3_key: string, over: Record<string, unknown> = {}) => ({
  merchant_id: A1,
  s3_key,
  name: 'Proof of shipping',
  file_name: 'proof.pdf',
  content_type: 'application/pdf',
  size: 1000,
  template_type: 1,
  pages: 99,
  document_type_id: 9,
  mid_ids: [],
  ...over,
});

const liveCount = async () =>
  Number(
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from docs.templates where deleted_at is null`,
      )
    ).rows[0]!.n,
  );

describe('the seeded library', () => {
  it("lists a merchant's templates newest first with paging, pages and files", async () => {
    const r = await list('merchant.admin', A1, '&start=0&limit=999');
    expect(r.status).toBe(200);
    const data = r.json.data as Template[];
    expect(data.map((d) => d.name)).toEqual([
      'Signed Delivery Slip',
      'Terms and Conditions',
      'Refund Policy',
    ]);
    expect(data.map((d) => d.file.pages)).toEqual([1, 3, 2]);
    expect(data[0]!.file.content_type).toBe('image/jpeg');
    expect(r.json.pagination).toEqual({ total: 3, limit: 999, start: 0 });
    const page = await list('merchant.admin', A1, '&start=2&limit=2');
    expect((page.json.data as Template[]).map((d) => d.name)).toEqual(['Refund Policy']);
    expect((page.json.pagination as { total: number }).total).toBe(3);
    // The seeded files are in the object store and are what the rows say.
    for (const d of data) {
      const { rows } = await t.db.query<{ s3_key: string }>(
        `select s3_key from docs.templates where id = $1`,
        [d.id],
      );
      expect(await store.head('acme', rows[0]!.s3_key)).toEqual({
        size: d.file.size,
        contentType: d.file.content_type,
      });
    }
  });

  it('is empty for a merchant without templates', async () => {
    const r = await list('partner.user', A2);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual([]);
    expect((r.json.pagination as { total: number }).total).toBe(0);
  });

  it('shows a merchant only to users whose scope includes it', async () => {
    expect((await list('partner.user', A1)).status).toBe(200);
    expect((await list('manager', B1)).status).toBe(200);
    const out = await list('merchant.admin', B1);
    expect(out.status).toBe(404);
    expect(out.json.message).toBe(TEMPLATE_MESSAGES.merchantNotFound);
    expect((await list('merchant.admin', 999_999)).status).toBe(404);
  });

  it('answers the template and document types', async () => {
    const r = await c.api('acme', 'merchant.admin', 'GET', '/api/docs/templates/types');
    expect(r.status).toBe(200);
    expect(r.json.template_types).toEqual([{ id: 1, name: 'Basic' }]);
    expect(r.json.document_types).toContainEqual({ id: 9, name: 'Generic', required: false });
  });
});

describe('create and delete', () => {
  it('stores a PDF template with the pages counted from the bytes, then soft-deletes it', async () => {
    const pdf = await textPdf('Shipping proof', [['one'], ['two'], ['three'], ['four']]);
    const key = await upload('merchant.admin', pdf, 'application/pdf');
    const created = await c.api(
      'acme',
      'merchant.admin',
      'POST',
      '/api/docs/templates',
      body(key, { size: 1 }),
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const tpl = created.json as unknown as Template;
    expect(tpl.file).toEqual({
      filename: 'proof.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      pages: 4,
    });
    expect(tpl.created_by).toBe('merchant.admin');
    expect(tpl.document_type).toBe('Generic');
    expect((await list('merchant.admin', A1)).json.data).toContainEqual(tpl);
    // The same key cannot make a second template.
    expect((await c.api('acme', 'manager', 'POST', '/api/docs/templates', body(key))).status).toBe(404);

    const del = await c.api(
      'acme',
      'merchant.admin',
      'DELETE',
      `/api/docs/merchant/${A1}/template/${tpl.id}`,
    );
    expect(del.status).toBe(204);
    expect(((await list('merchant.admin', A1)).json.data as Template[]).some((d) => d.id === tpl.id)).toBe(
      false,
    );
    const { rows } = await t.db.query<{ deleted: boolean }>(
      `select deleted_at is not null as deleted from docs.templates where id = $1`,
      [tpl.id],
    );
    expect(rows[0]!.deleted).toBe(true);
    const again = await c.api(
      'acme',
      'merchant.admin',
      'DELETE',
      `/api/docs/merchant/${A1}/template/${tpl.id}`,
    );
    expect(again.status).toBe(404);
    expect(again.json.message).toBe(TEMPLATE_MESSAGES.notFound);
  });

  it('stores a JPEG as one page, with MIDs of the merchant', async () => {
    const mids = await t.db.query<{ id: string }>(
      `select id from cases.mids where merchant_id = $1 order by id`,
      [A1],
    );
    const midIds = mids.rows.slice(0, 2).map((m) => Number(m.id));
    const jpg = flatJpeg(64, 48);
    const key = await upload('manager', jpg, 'image/jpeg');
    const r = await c.api(
      'acme',
      'manager',
      'POST',
      '/api/docs/templates',
      body(key, { content_type: 'image/jpeg', file_name: 'slip.jpg', pages: 7, mid_ids: midIds }),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect((r.json as unknown as Template).file.pages).toBe(1);
    expect((r.json as unknown as Template).mid_ids).toEqual(midIds);
  });
});

describe('refusals store nothing', () => {
  it('refuses a file type other than JPEG or PDF', async () => {
    const r = await c.api(
      'acme',
      'merchant.admin',
      'GET',
      `/api/docs/templates/upload-link?merchant_id=${A1}&filename=a.png&content_type=image%2Fpng`,
    );
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(TEMPLATE_MESSAGES.typeNotAllowed);
    const before = await liveCount();
    const key = await upload('merchant.admin', await textPdf('x', [['x']]), 'application/pdf');
    const png = await c.api(
      'acme',
      'merchant.admin',
      'POST',
      '/api/docs/templates',
      body(key, { content_type: 'image/png' }),
    );
    expect(png.status).toBe(400);
    expect(png.json.message).toBe(TEMPLATE_MESSAGES.typeNotAllowed);
    // Declared JPEG, stored as PDF: the store's type is the truth.
    const mismatch = await c.api(
      'acme',
      'merchant.admin',
      'POST',
      '/api/docs/templates',
      body(key, { content_type: 'image/jpeg' }),
    );
    expect(mismatch.status).toBe(400);
    expect(await store.head('acme', key)).toBeNull();
    expect(await liveCount()).toBe(before);
  });

  it.each([
    [
      'a JPEG without its end marker',
      'image/jpeg',
      () => flatJpeg(16, 16).subarray(0, -2),
      TEMPLATE_MESSAGES.jpgCorrupt,
    ],
    [
      'a PDF that is not one',
      'application/pdf',
      () => Buffer.from('not a pdf at all'),
      TEMPLATE_MESSAGES.pdfCorrupt,
    ],
    ['a JPEG named as a PDF', 'application/pdf', () => flatJpeg(16, 16), TEMPLATE_MESSAGES.pdfCorrupt],
    ['an encrypted PDF', 'application/pdf', encryptedPdf, TEMPLATE_MESSAGES.pdfCorrupt],
  ])('refuses %s', async (_name, type, make, message) => {
    const before = await liveCount();
    const key = await upload('merchant.admin', make(), type);
    const r = await c.api(
      'acme',
      'merchant.admin',
      'POST',
      '/api/docs/templates',
      body(key, { content_type: type }),
    );
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(message);
    expect(await store.head('acme', key)).toBeNull();
    expect(await liveCount()).toBe(before);
  });

  it("refuses another tenant's key and a key that names nothing", async () => {
    const before = await liveCount();
    const foreign = await upload(
      'manager',
      await textPdf('nb', [['nb']]),
      'application/pdf',
      demoMerchantId(NORTHBANK, 'merchantA1'),
      'northbank',
    );
    const r = await c.api('acme', 'manager', 'POST', '/api/docs/templates', body(foreign));
    expect(r.status).toBe(404);
    expect(await store.head('northbank', foreign)).not.toBeNull(); // untouched
    const missing = 'acme/templates/00000000-0000-4000-8000-00000000dead/missing.pdf';
    expect((await c.api('acme', 'manager', 'POST', '/api/docs/templates', body(missing))).status).toBe(404);
    expect(
      (await c.api('acme', 'manager', 'POST', '/api/docs/templates', body('../../etc/passwd'))).status,
    ).toBe(404);
    expect(await liveCount()).toBe(before);
  });

  it('refuses a merchant out of scope and MIDs of another merchant', async () => {
    const before = await liveCount();
    const key = await upload('merchant.admin', await textPdf('x', [['x']]), 'application/pdf');
    const out = await c.api(
      'acme',
      'merchant.admin',
      'POST',
      '/api/docs/templates',
      body(key, { merchant_id: B1 }),
    );
    expect(out.status).toBe(404);
    expect(
      (await c.api('acme', 'merchant.admin', 'DELETE', `/api/docs/merchant/${B1}/template/1`)).status,
    ).toBe(404);
    const mid = await t.db.query<{ id: string }>(`select id from cases.mids where merchant_id = $1 limit 1`, [
      B1,
    ]);
    const midOther = await c.api(
      'acme',
      'manager',
      'POST',
      '/api/docs/templates',
      body(key, { mid_ids: [Number(mid.rows[0]!.id)] }),
    );
    expect(midOther.status).toBe(400);
    expect(midOther.json.message).toBe(TEMPLATE_MESSAGES.midNotFound);
    expect(await liveCount()).toBe(before);
  });

  it('refuses read-only users (403) at every write', async () => {
    const before = await liveCount();
    const key = await upload('merchant.admin', await textPdf('x', [['x']]), 'application/pdf');
    expect((await c.api('acme', 'readonly', 'POST', '/api/docs/templates', body(key))).status).toBe(403);
    const tpl = (await list('readonly', A1)).json.data as Template[];
    expect(tpl.length).toBeGreaterThan(0); // reading is fine
    expect(
      (await c.api('acme', 'readonly', 'DELETE', `/api/docs/merchant/${A1}/template/${tpl[0]!.id}`)).status,
    ).toBe(403);
    const link = await c.api(
      'acme',
      'readonly',
      'GET',
      `/api/docs/templates/upload-link?merchant_id=${A1}&filename=a.pdf&content_type=application%2Fpdf`,
    );
    expect(link.status).toBe(403);
    expect(await liveCount()).toBe(before);
  });
});
