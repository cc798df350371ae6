import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  DEMO_PASSWORD,
  REPRESENTMENT_MESSAGES as M,
  type RepresentmentLink,
} from '@portal/contracts';
import { resolveDocsLinkSecret } from '@portal/docs-service';
import { startStack, type Stack } from '@portal/runner';
import {
  deriveObjectSecret,
  FilesystemObjectStore,
  FS_DOWNLOAD_URL,
  FS_UPLOAD_URL,
  OBJECT_MESSAGES,
} from '@portal/storage';
import { flatJpeg } from '../../../services/docs/src/seed/demo-jpeg';
import { callGateway } from '../../support/gateway-client';
import { makePdf, postForm, uploadFile } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The representment upload path (issue 12; spec 2 §2.6, §4, §5, §7, §8)
 * through the gateway with the real object store (filesystem store), the job
 * worker and Postgres: upload link -> form post -> POST representment ->
 * DocCompiling -> compile job -> DocCompiled -> transport -> TransportCompleted,
 * the QC variant, provenance, and every refusal changing nothing.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const api = (user: string, method: string, path: string, body?: unknown, tenant = 'acme') =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

const newCases: number[] = [];
function takeCase(): number {
  const id = newCases.shift();
  if (!id) throw new Error('out of New cases');
  return id;
}

async function statusOf(caseId: number): Promise<number> {
  const { rows } = await t.db.query<{ status_id: number }>(
    `select status_id from cases.cases where id = $1`,
    [caseId],
  );
  return rows[0]!.status_id;
}
async function waitForStatus(caseId: number, status: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await statusOf(caseId);
    if (now === status) return;
    if (Date.now() > deadline) throw new Error(`case ${caseId} is ${now}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
async function historyOf(caseId: number): Promise<string[]> {
  const { rows } = await t.db.query<{ action: string }>(
    `select action from cases.case_history where case_id = $1 order by id`,
    [caseId],
  );
  return rows.map((r) => r.action);
}
/** Everything a refused upload must leave as it was (jobs: this case's own; other tests' jobs run meanwhile). */
async function snapshot(caseId: number) {
  const { rows } = await t.db.query(
    `select (select status_id from cases.cases where id = $1) as status,
       (select count(*)::int from docs.representment_versions where case_id = $1) as versions,
       (select count(*)::int from cases.case_history where case_id = $1) as history,
       (select count(*)::int from jobs.job_status where singleton_key = 'transport-' || $1::bigint::text
          or id in (select compile_job_id from docs.representment_versions where case_id = $1)) as jobs`,
    [caseId],
  );
  return rows[0];
}

function upload(
  caseId: number,
  bytes: Uint8Array,
  name: string,
  type: 'application/pdf' | 'image/jpeg',
  user = 'manager',
) {
  return uploadFile(stack.gatewayUrl, 'acme', tokens.get(`acme:${user}`)!, caseId, bytes, name, type);
}
const body = (
  caseId: number,
  files: Array<{ key: string; name: string; type: string; size: number }>,
  extra: object = {},
) => ({
  case_id: caseId,
  origin: 2,
  files: files.map((f, i) => ({
    s3_key: f.key,
    filename: f.name,
    content_type: f.type,
    size: f.size,
    order_num: i,
  })),
  templates: [],
  qc_review: false,
  is_reupload: false,
  comment: 'Evidence attached',
  ...extra,
});

function download(link: string) {
  const url = new URL(stack.gatewayUrl);
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: link, method: 'GET', headers: { host: 'acme.localhost' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
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
    ['acme', 'readonly'],
    ['northbank', 'manager'],
  ] as const) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status).toBe(200);
    tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }
  const { rows } = await t.db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 30`,
  );
  newCases.push(...rows.map((r) => Number(r.id)));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('upload, compile and transport (no QC)', () => {
  it('goes New -> DocCompiling -> DocCompiled -> TransportCompleted with provenance', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(3);
    const jpg = flatJpeg(640, 480);
    const pdfKey = await upload(caseId, pdf, 'evidence.pdf', 'application/pdf');
    const jpgKey = await upload(caseId, jpg, 'receipt.jpg', 'image/jpeg');
    expect(pdfKey.startsWith('acme/representments/')).toBe(true);
    const r = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      body(caseId, [
        { key: pdfKey, name: 'evidence.pdf', type: 'application/pdf', size: pdf.length },
        { key: jpgKey, name: 'receipt.jpg', type: 'image/jpeg', size: jpg.length },
      ]),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ message: M.success, title: M.successTitle, version: 1, status_id: 6 });
    // Accepted: the version's rows exist and the case is compiling (or already past it: the worker is fast).
    const first = await api('manager', 'GET', `/api/docs/representment/${caseId}`);
    expect(first.status).toBe(200);
    const doc = first.json as unknown as RepresentmentLink;
    expect(
      doc.documents.map((d) => [d.filename, d.content_type, d.size, d.pages, d.sha256, d.uploaded_by]),
    ).toEqual([
      ['evidence.pdf', 'application/pdf', pdf.length, 3, sha(pdf), 'manager'],
      ['receipt.jpg', 'image/jpeg', jpg.length, 1, sha(jpg), 'manager'],
    ]);
    expect(doc.case_comments).toBe('Evidence attached');

    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);
    const history = await historyOf(caseId);
    const tail = history.slice(-5);
    expect(tail[0]).toMatch(/^Representment v1 uploaded/);
    expect(tail[1]).toBe('Representment v1 compiled (4 pages)');
    expect(tail[2]).toBe('Representment ready for transport');
    expect(tail[3]).toBe('Representment transport started');
    expect(tail[4]).toMatch(/^Representment delivered to the card network \(simulator SIM-[0-9A-F]{16}\)$/);

    const done = (await api('manager', 'GET', `/api/docs/representment/${caseId}`))
      .json as unknown as RepresentmentLink;
    expect(done.compiled).toMatchObject({ pages: 4 });
    expect(done.versions).toHaveLength(1);
    expect(done.versions[0]!.submission_id).toMatch(/^SIM-/);
    // The compiled PDF downloads, and its hash is the one recorded.
    const file = await download(done.link!);
    expect(file.status).toBe(200);
    expect(file.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sha(file.body)).toBe(done.compiled!.sha256);
    expect(file.body.length).toBe(done.compiled!.size);
    // Transport of a case already sent is refused.
    const again = await api('manager', 'POST', '/api/docs/representment/transport', { case_id: caseId });
    expect(again.status).toBe(409);
  }, 60_000);
});

describe('templates in the set', () => {
  it('compiles a file and a library template in the order given, the template counted by its pages', async () => {
    const { rows } = await t.db.query<{ case_id: number; template_id: number; pages: number }>(
      `select c.id as case_id, tp.id as template_id, tp.pages from cases.cases c
         join docs.templates tp on tp.tenant_id = c.tenant_id and tp.merchant_id = c.merchant_id and tp.deleted_at is null
       where c.tenant_id = 'acme' and c.status_id = 1 and not (c.id = any($1::bigint[]))
       order by c.id, tp.id limit 1`,
      [newCases],
    );
    if (!rows[0]) throw new Error('no New case whose merchant has a template');
    const caseId = Number(rows[0].case_id);
    const templateId = Number(rows[0].template_id);
    const pdf = await makePdf(2);
    const key = await upload(caseId, pdf, 'with-template.pdf', 'application/pdf');
    const r = await api('manager', 'POST', '/api/docs/representment', {
      ...body(caseId, [{ key, name: 'with-template.pdf', type: 'application/pdf', size: pdf.length }]),
      files: [
        {
          s3_key: key,
          filename: 'with-template.pdf',
          content_type: 'application/pdf',
          size: pdf.length,
          order_num: 1,
        },
      ],
      templates: [{ id: templateId, order_num: 0 }],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);
    const doc = (await api('manager', 'GET', `/api/docs/representment/${caseId}`))
      .json as unknown as RepresentmentLink;
    expect(doc.documents.map((d) => [d.kind, d.template_id])).toEqual([
      ['template', templateId],
      ['file', null],
    ]);
    expect(doc.compiled!.pages).toBe(Number(rows[0].pages) + 2);
    // A template id of no template (or of another merchant) is refused.
    const other = takeCase();
    const k2 = await upload(other, pdf, 'x.pdf', 'application/pdf');
    const bad = await api('manager', 'POST', '/api/docs/representment', {
      ...body(other, [{ key: k2, name: 'x.pdf', type: 'application/pdf', size: pdf.length }]),
      templates: [{ id: 999999, order_num: 1 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(M.unknownTemplate(999999));
  }, 60_000);
});

describe('upload with Quality Review', () => {
  it('waits in the QC queue; QC approval triggers transport; a re-upload adds a version', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(2);
    const key = await upload(caseId, pdf, 'qc.pdf', 'application/pdf');
    const r = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      body(caseId, [{ key, name: 'qc.pdf', type: 'application/pdf', size: pdf.length }], { qc_review: true }),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await waitForStatus(caseId, CASE_STATUS.DocUploaded);
    expect((await historyOf(caseId)).slice(-1)).toEqual(['Representment sent for Quality Review']);
    // Explicit transport is refused while the case waits for QC.
    expect(
      (await api('manager', 'POST', '/api/docs/representment/transport', { case_id: caseId })).status,
    ).toBe(409);

    // Re-upload while in QC: version 2, version 1 kept.
    const pdf2 = await makePdf(1);
    const key2 = await upload(caseId, pdf2, 'qc-v2.pdf', 'application/pdf');
    const re = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      body(caseId, [{ key: key2, name: 'qc-v2.pdf', type: 'application/pdf', size: pdf2.length }], {
        qc_review: true,
        is_reupload: true,
      }),
    );
    expect(re.status, JSON.stringify(re.json)).toBe(200);
    expect(re.json.version).toBe(2);
    // A re-upload does not go to QC again (the checkbox is not offered): it is transported.
    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);
    const doc = (await api('manager', 'GET', `/api/docs/representment/${caseId}`))
      .json as unknown as RepresentmentLink;
    expect(doc.versions.map((v) => [v.version, v.documents[0]!.filename, v.documents[0]!.sha256])).toEqual([
      [2, 'qc-v2.pdf', sha(pdf2)],
      [1, 'qc.pdf', sha(pdf)],
    ]);
  }, 60_000);

  it('QC approval of an uploaded case enqueues transport, which completes it', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(2);
    const key = await upload(caseId, pdf, 'qc.pdf', 'application/pdf');
    const r = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      body(caseId, [{ key, name: 'qc.pdf', type: 'application/pdf', size: pdf.length }], { qc_review: true }),
    );
    expect(r.status).toBe(200);
    await waitForStatus(caseId, CASE_STATUS.DocUploaded);
    const approve = await api('manager', 'PATCH', '/api/cm/cases/qc', { id: caseId, action_id: 1 });
    expect(approve.status, JSON.stringify(approve.json)).toBe(200);
    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);
    const h = await historyOf(caseId);
    expect(h).toContain('QC approved: representment sent to transport');
    expect(h.slice(-1)[0]).toMatch(/^Representment delivered to the card network/);
  }, 60_000);
});

describe('refusals change nothing', () => {
  async function refused(
    caseId: number,
    call: () => Promise<{ status: number; json: Record<string, unknown> }>,
    status: number,
    message?: string,
  ) {
    const before = await snapshot(caseId);
    const r = await call();
    expect(r.status, JSON.stringify(r.json)).toBe(status);
    if (message) expect(r.json.message).toBe(message);
    expect(await snapshot(caseId)).toEqual(before);
    return r;
  }
  const post =
    (b: unknown, user = 'manager', tenant = 'acme') =>
    () =>
      api(user, 'POST', '/api/docs/representment', b, tenant);

  it('read-only users: no upload link (403), no upload (403)', async () => {
    const caseId = takeCase();
    await refused(
      caseId,
      () => api('readonly', 'GET', `/api/docs/representment/upload-link?case_id=${caseId}`),
      403,
    );
    await refused(caseId, post(body(caseId, []), 'readonly'), 403);
  });

  it('another tenant: the case is not found; a key of another tenant or case is refused', async () => {
    const caseId = takeCase();
    const other = takeCase();
    await refused(
      caseId,
      () =>
        api(
          'manager',
          'GET',
          `/api/docs/representment/upload-link?case_id=${caseId}`,
          undefined,
          'northbank',
        ),
      404,
    );
    await refused(caseId, post(body(caseId, []), 'manager', 'northbank'), 404);
    const pdf = await makePdf(1);
    const otherKey = await upload(other, pdf, 'other.pdf', 'application/pdf');
    const file = { key: otherKey, name: 'other.pdf', type: 'application/pdf', size: pdf.length };
    await refused(caseId, post(body(caseId, [file])), 400, M.foreignKey);
    const foreign = { ...file, key: `northbank/representments/6f1c1c56-3b7e-4a51-9d7e-0c7f1d7d2a11/x.pdf` };
    await refused(caseId, post(body(caseId, [foreign])), 400, M.foreignKey);
    // The key still works for its own case afterwards.
    expect((await api('manager', 'POST', '/api/docs/representment', body(other, [file]))).status).toBe(200);
  });

  it('an expired upload form is refused by the store, and its key by the upload', async () => {
    const caseId = takeCase();
    const link = await api('manager', 'GET', `/api/docs/representment/upload-link?case_id=${caseId}`);
    expect(link.status).toBe(200);
    // The same store the docs service opened, with a form that expired a second ago for the key just issued.
    const store = await FilesystemObjectStore.open({
      root: join(t.env.DATA_DIR, 'objects'),
      secret: deriveObjectSecret(resolveDocsLinkSecret(t.env)),
      uploadUrl: FS_UPLOAD_URL,
      downloadUrl: FS_DOWNLOAD_URL,
      log: t.deps.log,
    });
    const expired = await store.createUploadLink({
      tenant: 'acme',
      area: 'representments',
      filename: 'late.pdf',
      contentType: 'application/pdf',
      maxBytes: 1024 * 1024,
      expiresInSeconds: 1,
    });
    await store.close();
    await new Promise((r) => setTimeout(r, 2100));
    const pdf = await makePdf(1);
    const posted = await postForm(stack.gatewayUrl, 'acme', expired, pdf, 'late.pdf', 'application/pdf');
    expect(posted.status).toBe(403);
    expect(JSON.parse(posted.body).message).toBe(OBJECT_MESSAGES.formExpired);
    const file = { key: expired.fields.key!, name: 'late.pdf', type: 'application/pdf', size: pdf.length };
    await refused(caseId, post(body(caseId, [file])), 400, M.foreignKey);
    // An issued key whose file never arrived: missing.
    const issued = (link.json as { fields: Record<string, string> }).fields.key!;
    await refused(caseId, post(body(caseId, [{ ...file, key: issued }])), 400, M.missingFile);
  }, 20_000);

  it('checks the stored bytes: type, JPEG end marker, PDF loads and is not encrypted', async () => {
    const caseId = takeCase();
    const cases: Array<[Uint8Array, 'application/pdf' | 'image/jpeg', string]> = [
      [Buffer.from('GIF89a not a representment'), 'application/pdf', M.wrongType(10)],
      [flatJpeg(64, 64).subarray(0, flatJpeg(64, 64).length - 2), 'image/jpeg', M.corruptJpg],
      [Buffer.from('%PDF-1.7\n1 0 obj broken'), 'application/pdf', M.corruptPdf],
      [await makePdf(1, { encrypt: true }), 'application/pdf', M.corruptPdf],
    ];
    for (const [bytes, type, message] of cases) {
      const key = await upload(caseId, bytes, type === 'image/jpeg' ? 'x.jpg' : 'x.pdf', type);
      await refused(caseId, post(body(caseId, [{ key, name: 'x', type, size: bytes.length }])), 400, message);
    }
    await refused(caseId, post(body(caseId, [])), 400, M.noFile);
  });

  it('total size and total pages within the user stack config (10 MB, 50 pages in acme)', async () => {
    const caseId = takeCase();
    const big = await makePdf(1, { padTo: 6 * 1024 * 1024 });
    const a = await upload(caseId, big, 'a.pdf', 'application/pdf');
    const b = await upload(caseId, big, 'b.pdf', 'application/pdf');
    const f = (key: string) => ({ key, name: 'big.pdf', type: 'application/pdf', size: big.length });
    await refused(caseId, post(body(caseId, [f(a), f(b)])), 400, M.tooLarge(10));
    expect(M.tooLarge(10)).toBe('Files exceed 10MB total limit.');
    const many = await makePdf(50);
    const jpg = flatJpeg(32, 32);
    const k1 = await upload(caseId, many, 'many.pdf', 'application/pdf');
    const k2 = await upload(caseId, jpg, 'one.jpg', 'image/jpeg');
    await refused(
      caseId,
      post(
        body(caseId, [
          { key: k1, name: 'many.pdf', type: 'application/pdf', size: many.length },
          { key: k2, name: 'one.jpg', type: 'image/jpeg', size: jpg.length },
        ]),
      ),
      400,
      M.tooManyPages(50),
    );
    expect(M.tooManyPages(50)).toBe('Images and PDF pages must not exceed 50 total.');
    // 50 pages exactly is within the limit.
    const ok = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      body(caseId, [{ key: k1, name: 'many.pdf', type: 'application/pdf', size: many.length }]),
    );
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  }, 60_000);

  it('a case another user holds open for an upload (case patch 16) is refused', async () => {
    const caseId = takeCase();
    const pdf = await makePdf(1);
    const key = await upload(caseId, pdf, 'held.pdf', 'application/pdf');
    const held = await api('agent', 'PATCH', '/api/cm/cases/patch', {
      ids: String(caseId),
      status: 16,
      type: 'upload',
    });
    expect(held.status, JSON.stringify(held.json)).toBe(200);
    const file = { key, name: 'held.pdf', type: 'application/pdf', size: pdf.length };
    await refused(caseId, post(body(caseId, [file])), 409, M.heldByOther('agent'));
    // Released (1), the upload goes through.
    expect(
      (await api('agent', 'PATCH', '/api/cm/cases/patch', { ids: String(caseId), status: 1, type: 'upload' }))
        .status,
    ).toBe(200);
    expect((await api('manager', 'POST', '/api/docs/representment', body(caseId, [file]))).status).toBe(200);
  });

  it('a case that cannot take a representment (in transport, completed) is refused', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 10 order by id limit 1`,
    );
    const caseId = Number(rows[0]!.id);
    await refused(
      caseId,
      () => api('manager', 'GET', `/api/docs/representment/upload-link?case_id=${caseId}`),
      409,
    );
  });

  it('the messages of spec 2 §2.6, §5 and §8, word for word', () => {
    expect([M.noFile, M.corruptJpg, M.corruptPdf, M.failed, M.success, M.successTitle]).toEqual([
      'Please select a file to upload.',
      'Selected JPG file is corrupt.',
      'Selected PDF file is corrupt or encrypted.',
      'An error occurred. Please try again later.',
      'The representment was successfully uploaded.',
      'Success!',
    ]);
    expect([M.tooltipUnavailable, M.tooltipCompiling, M.tooltipDownloading, M.uploading]).toEqual([
      'Document Unavailable',
      'Doc(s) compiling...',
      'Downloading...',
      'Uploading files...',
    ]);
    expect([M.discardTitle, M.discardText, M.discard]).toEqual([
      'Are you sure?',
      'The changes you made in this session will be lost.',
      'Discard',
    ]);
    expect(M.centralArbitration).toBe(
      'By continuing this dispute, you accept liability of card network arbitration fees of up to $1000.00+, in the event the case is ruled as a loss.',
    );
  });
});

describe('the seeded demo documents', () => {
  it('still answer a signed link with no versions', async () => {
    const { rows } = await t.db.query<{ case_id: number }>(
      `select case_id from docs.representments where tenant_id = 'acme' and not is_archived order by case_id limit 1`,
    );
    const r = await api('manager', 'GET', `/api/docs/representment/${rows[0]!.case_id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ versions: [], compiled: null, documents: [] });
    expect(typeof r.json.link).toBe('string');
  });
});
