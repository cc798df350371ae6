import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILDER_MESSAGES as B,
  DEMO_PASSWORD,
  REPRESENTMENT_MESSAGES as M,
  type ProductList,
} from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { flatJpeg } from '../../../services/docs/src/seed/demo-jpeg';
import { callGateway } from '../../support/gateway-client';
import { makePdf, postForm, type UploadLink } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { recordingDb, type DbCall } from './docs-helpers';

/**
 * Issue 27 part D and part G (last item), through the gateway with the real
 * object store and Postgres:
 * - the declared type of an upload (at link time, in the upload form, and at
 *   submit time) must be the type the bytes are: a PDF declared as a JPEG (or
 *   the reverse) is refused with the spec's wrong-type message, and nothing
 *   is stored;
 * - ids out of every column's range (bigint overflow, 1e400) are refused by
 *   the request schema with a 400 before any SQL is sent: the stack runs on a
 *   database handle that records every statement, so the test sees that no
 *   statement carried the value and none failed.
 */
let t: TestEnv;
let stack: Stack;
const calls: DbCall[] = [];
const tokens = new Map<string, string>();
const ACME_MB = 10;

const api = (user: string, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token: tokens.get(`acme:${user}`), body });
const raw = (user: string, method: string, path: string, body?: string) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token: tokens.get(`acme:${user}`), rawBody: body });

const newCases: number[] = [];
function takeCase(): number {
  const id = newCases.shift();
  if (!id) throw new Error('out of New cases');
  return id;
}

/** What a refused upload must leave as it was. */
async function snapshot(caseId: number) {
  const { rows } = await t.db.query(
    `select (select status_id from cases.cases where id = $1) as status,
       (select count(*)::int from docs.representment_versions where case_id = $1) as versions,
       (select count(*)::int from docs.representment_documents d join docs.representment_versions v
          on v.id = d.version_id where v.case_id = $1) as documents,
       (select count(*)::int from cases.case_history where case_id = $1) as history,
       (select count(*)::int from jobs.job_status where singleton_key = 'transport-' || $1::bigint::text
          or id in (select compile_job_id from docs.representment_versions where case_id = $1)) as jobs`,
    [caseId],
  );
  return rows[0];
}

/** Messages of the DOC_VALIDATION_ERROR events queued for a case (the outbox job; no worker runs here). */
async function validationEvents(caseId: number): Promise<string[]> {
  const { rows } = await t.db.query<{ message: string }>(
    `select e->'data'->>'message' as message
       from pgboss.job j, jsonb_array_elements(j.data->'input'->'events') e
      where j.name = 'events.dispatch' and e->>'type' = 'DOC_VALIDATION_ERROR'
        and (e->'data'->>'case_id')::bigint = $1`,
    [caseId],
  );
  return rows.map((r) => r.message);
}

type Declared = 'application/pdf' | 'image/jpeg';

/** An upload link asked for `linkType`, the bytes posted with the form (which must name that type). */
async function uploadAs(caseId: number, bytes: Uint8Array, linkType: Declared, path = 'representment') {
  const name = linkType === 'image/jpeg' ? 'evidence.jpg' : 'evidence.pdf';
  const q = new URLSearchParams({ case_id: String(caseId), filename: name, content_type: linkType });
  const link = await api('manager', 'GET', `/api/docs/${path}/upload-link?${q}`);
  expect(link.status, JSON.stringify(link.json)).toBe(200);
  const form = link.json as unknown as UploadLink;
  const posted = await postForm(stack.gatewayUrl, 'acme', form, bytes, name, linkType);
  // The store takes any bytes under the form's type: the docs service reads them at submit time.
  expect([200, 201, 204], posted.body).toContain(posted.status);
  return form.fields.key!;
}

const submit = (caseId: number, key: string, declared: string, size: number) =>
  api('manager', 'POST', '/api/docs/representment', {
    case_id: caseId,
    origin: 2,
    files: [{ s3_key: key, filename: 'evidence', content_type: declared, size, order_num: 0 }],
    templates: [],
    qc_review: false,
    is_reupload: false,
    comment: null,
  });

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(
    { ...t.deps, db: recordingDb(t.db, calls) },
    {
      gatewayPort: 0,
      gatewayHost: '127.0.0.1',
    },
  );
  for (const username of ['manager']) {
    const r = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status).toBe(200);
    tokens.set(`acme:${username}`, r.json.access_token as string);
  }
  const { rows } = await t.db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 10`,
  );
  newCases.push(...rows.map((r) => Number(r.id)));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('the declared type must be the type of the bytes (issue 27 D)', () => {
  it('PDF bytes asked and submitted as image/jpeg: 400 with the wrong-type message, nothing stored', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(1);
    const key = await uploadAs(caseId, pdf, 'image/jpeg');
    const before = await snapshot(caseId);
    const r = await submit(caseId, key, 'image/jpeg', pdf.length);
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.message).toBe(M.wrongType(ACME_MB));
    expect(M.wrongType(ACME_MB)).toBe(
      'Only single JPG or PDF files of no more than 10MB in total size are allowed.',
    );
    expect(await snapshot(caseId)).toEqual(before);
    // The refusal comes after the case scope check: it is the case's DOC_VALIDATION_ERROR event.
    expect(await validationEvents(caseId)).toEqual([M.wrongType(ACME_MB)]);
  });

  it('JPEG bytes asked and submitted as application/pdf: 400 with the wrong-type message, nothing stored', async () => {
    const caseId = takeCase();
    const jpg = flatJpeg(64, 48);
    const key = await uploadAs(caseId, jpg, 'application/pdf');
    const before = await snapshot(caseId);
    const r = await submit(caseId, key, 'application/pdf', jpg.length);
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.message).toBe(M.wrongType(ACME_MB));
    expect(await snapshot(caseId)).toEqual(before);
  });

  it('a mismatch at link time only, or at submit time only, is refused too; the right types go through', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(1);
    // Link (and form) say JPEG, the submission says PDF, the bytes are a PDF.
    const linkWrong = await uploadAs(caseId, pdf, 'image/jpeg');
    const before = await snapshot(caseId);
    const a = await submit(caseId, linkWrong, 'application/pdf', pdf.length);
    expect(a.status, JSON.stringify(a.json)).toBe(400);
    expect(a.json.message).toBe(M.wrongType(ACME_MB));
    // Link and bytes say PDF, the submission says JPEG.
    const submitWrong = await uploadAs(caseId, pdf, 'application/pdf');
    const b = await submit(caseId, submitWrong, 'image/jpeg', pdf.length);
    expect(b.status, JSON.stringify(b.json)).toBe(400);
    expect(b.json.message).toBe(M.wrongType(ACME_MB));
    expect(await snapshot(caseId)).toEqual(before);
    // The refusals left the key unused: declared as what it is, the same file is accepted.
    const ok = await submit(caseId, submitWrong, 'application/pdf', pdf.length);
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    const { rows } = await t.db.query<{ content_type: string }>(
      `select d.content_type from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id where v.case_id = $1`,
      [caseId],
    );
    expect(rows.map((r) => r.content_type)).toEqual(['application/pdf']);
  });

  it('case builder: a JPEG declared as a PDF, or stored under a PDF link, is refused with its message', async () => {
    // A Fraud case whose builder page 1 is saved (the submission needs it), as the builder tests do.
    const { rows } = await t.db.query<{ id: number; mid_id: number }>(
      `select c.id, c.mid_id from cases.cases c join cases.reason_codes rc on rc.id = c.reason_code_id
         join cases.reason_code_categories cat on cat.id = rc.category_id
        where c.tenant_id = 'acme' and c.status_id = 1 and cat.name = 'Fraud' and not (c.id = any($1::bigint[]))
        order by c.id limit 1`,
      [newCases],
    );
    const caseId = Number(rows[0]!.id);
    const products = await api('manager', 'GET', `/api/builder/products?mid_id=${rows[0]!.mid_id}&limit=999`);
    const product = (products.json as unknown as ProductList).data.find((p) =>
      p.name.startsWith('Trail Running Shoes'),
    )!;
    const page1 = await api('manager', 'PUT', `/api/builder/case/${caseId}`, {
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
    });
    expect(page1.status, JSON.stringify(page1.json)).toBe(200);

    const jpg = flatJpeg(64, 48);
    const good = await uploadAs(caseId, jpg, 'image/jpeg', 'builder');
    const builderKey = await uploadAs(caseId, jpg, 'image/jpeg', 'builder');
    // A representment link of the same case, asked as a PDF, holding JPEG bytes.
    const pdfLinkKey = await uploadAs(caseId, jpg, 'application/pdf');
    const before = await snapshot(caseId);
    const builderFile = (key: string, declared: string, type: number) => ({
      s3_key: key,
      filename: `receipt-${type}.jpg`,
      content_type: declared,
      size: jpg.length,
      order_num: type - 1,
      upload_doc_type_id: type,
    });
    // Document types 1 and 2 are required for a Fraud case: the first file is right, the second is not.
    for (const wrong of [
      builderFile(builderKey, 'application/pdf', 2),
      builderFile(pdfLinkKey, 'image/jpeg', 2),
    ]) {
      const r = await api('manager', 'POST', '/api/docs/builder/upload', {
        case_id: caseId,
        files: [builderFile(good, 'image/jpeg', 1), wrong],
        templates: [],
      });
      expect(r.status, JSON.stringify(r.json)).toBe(400);
      expect(r.json.message).toBe(B.onlyJpgOrPdf(ACME_MB));
    }
    expect(await snapshot(caseId)).toEqual(before);
    // Declared as what it is, the builder's own upload goes through.
    const ok = await api('manager', 'POST', '/api/docs/builder/upload', {
      case_id: caseId,
      files: [builderFile(good, 'image/jpeg', 1), builderFile(builderKey, 'image/jpeg', 2)],
      templates: [],
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  });
});

/** Ids no column holds: past bigint on both sides, and a number JSON reads as Infinity. */
const OUT_OF_RANGE = ['-9223372036854775809', '9223372036854775808', '1e400'];

/** The answer of one raw call and the statements sent meanwhile (by every service and the gateway). */
async function withSql(user: string, method: string, path: string, body?: string) {
  const from = calls.length;
  const answer = await raw(user, method, path, body);
  // Hooks that run around the answer (onError, onResponse) get a moment to send their SQL.
  await new Promise((r) => setTimeout(r, 100));
  return { answer, sql: calls.slice(from) };
}
/** A parameter no int4/int8 column takes: a value sent on from the request unchecked. */
const outOfRange = (v: unknown) =>
  typeof v === 'number' && (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER);
/** Statements that failed or carried such a value. */
const badSql = (sql: DbCall[]) => sql.filter((c) => c.error !== undefined || c.params.some(outOfRange));

const uploadBody = (caseId: string, extra = '') =>
  `{"case_id":${caseId},"origin":2,"files":[],"templates":[],"qc_review":false,"is_reupload":false${extra}}`;
/** A second fault the input guard refuses before the schema is checked: a NUL in the comment. */
const NUL_COMMENT = ',"comment":"a\\u0000b"';

describe('ids out of range are refused before any SQL (issue 27 G)', () => {
  it('POST /docs/representment case_id: 400, and the value never reaches SQL, even after an earlier refusal', async () => {
    for (const id of OUT_OF_RANGE) {
      // Refused by the request schema, which names the field.
      const plain = await withSql('manager', 'POST', '/api/docs/representment', uploadBody(id));
      expect(plain.answer.status, `${id}: ${JSON.stringify(plain.answer.json)}`).toBe(400);
      expect(String(plain.answer.json.message), id).toMatch(/^body\/case_id must be/);
      expect(badSql(plain.sql), id).toEqual([]);
      // The NUL check answers 400 before the schema runs; the refused-upload event must not look up the
      // body's case_id (it did: 'value "-9223372036854776000" is out of range for type bigint').
      const nul = await withSql('manager', 'POST', '/api/docs/representment', uploadBody(id, NUL_COMMENT));
      expect(nul.answer.status, `${id}: ${JSON.stringify(nul.answer.json)}`).toBe(400);
      expect(badSql(nul.sql), id).toEqual([]);
      expect(
        nul.sql.filter((c) => c.sql.includes('select merchant_id from cases.cases')),
        id,
      ).toEqual([]);
    }
  });

  it('every other docs route taking an id: 400, and nothing out of range reaches SQL', async () => {
    const caseId = takeCase();
    const { rows } = await t.db.query<{ merchant_id: number }>(
      `select merchant_id from cases.cases where id = $1`,
      [caseId],
    );
    const merchantId = Number(rows[0]!.merchant_id);
    const routes = (id: string): Array<[string, string, string?]> => [
      [
        'POST',
        '/api/docs/representment',
        uploadBody(String(caseId)).replace('"templates":[]', `"templates":[{"id":${id},"order_num":0}]`),
      ],
      [
        'POST',
        '/api/docs/representment',
        uploadBody(String(caseId)).replace(
          '"files":[]',
          `"files":[{"s3_key":"k","filename":"f","content_type":"application/pdf","size":1,"upload_doc_type_id":${id}}]`,
        ),
      ],
      ['GET', `/api/docs/representment/upload-link?case_id=${id}`],
      ['GET', `/api/docs/representment/${id}`],
      ['POST', '/api/docs/representment/transport', `{"case_id":${id}}`],
      ['GET', `/api/docs/builder/upload-link?case_id=${id}`],
      ['POST', '/api/docs/builder/upload', `{"case_id":${id},"files":[],"templates":[]}`],
      [
        'POST',
        '/api/docs/builder/upload',
        `{"case_id":${caseId},"files":[],"templates":[{"id":${id},"order_num":0,"upload_doc_type_id":1}]}`,
      ],
      ['GET', `/api/docs/templates?merchant_id=${id}`],
      [
        'GET',
        `/api/docs/templates/upload-link?merchant_id=${id}&filename=a.pdf&content_type=application%2Fpdf`,
      ],
      [
        'POST',
        '/api/docs/templates',
        `{"merchant_id":${id},"s3_key":"k","name":"n","file_name":"a.pdf","content_type":"application/pdf","size":1,"template_type":1}`,
      ],
      [
        'POST',
        '/api/docs/templates',
        `{"merchant_id":${merchantId},"s3_key":"k","name":"n","file_name":"a.pdf","content_type":"application/pdf","size":1,"template_type":1,"mid_ids":[${id}]}`,
      ],
      ['DELETE', `/api/docs/merchant/${id}/template/1`],
      ['DELETE', `/api/docs/merchant/${merchantId}/template/${id}`],
      ['GET', `/api/docs/issuer-doc/${id}/1`],
      ['GET', `/api/docs/issuer-doc/${caseId}/${id}`],
    ];
    for (const id of OUT_OF_RANGE) {
      for (const [method, path, body] of routes(id)) {
        // As it is, and with a NUL in the query string, which the input guard refuses ahead of the schema.
        for (const target of [path, `${path}${path.includes('?') ? '&' : '?'}x=%00`]) {
          const { answer, sql } = await withSql('manager', method, target, body);
          const what = `${method} ${target} ${body ?? ''}`;
          expect(answer.status, `${what}: ${JSON.stringify(answer.json)}`).toBe(400);
          expect(badSql(sql), what).toEqual([]);
        }
      }
    }
  }, 60_000);
});
