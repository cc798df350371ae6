import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  DEMO_PASSWORD,
  EVIDENCE_MESSAGES as E,
  type CompiledPacket,
  type PacketPreview,
} from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { flatJpeg } from '../../../services/docs/src/seed/demo-jpeg';
import { evidencePdf, TEST_PAN } from '../../support/evidence-pdf';
import { callGateway } from '../../support/gateway-client';
import { uploadFile } from '../../support/representment-upload';
import { send } from '../storage/multipart';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * See the evidence before it goes (issue 34) through the gateway, with the
 * real object store, worker and Postgres: the preview is compiled by the
 * compile job's function and checked (card number, blank page, a date after
 * the due date); a card number refuses the upload until masked; page
 * operations stored with the version give a compiled packet equal to the
 * preview byte for byte; warnings accepted with a note reach the case
 * history; the QC reviewer's packet names each page's document and hash.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const api = (user: string, method: string, path: string, body?: unknown, tenant = 'acme') =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

async function getPdf(user: string, path: string, tenant = 'acme') {
  const r = await send(`${stack.gatewayUrl}${path}`, {
    headers: { host: `${tenant}.localhost`, authorization: `Bearer ${tokens.get(`${tenant}:${user}`)}` },
  });
  return { status: r.status, body: Buffer.from(r.body) };
}
async function statusOf(caseId: number): Promise<number> {
  const { rows } = await t.db.query<{ status_id: number }>(
    `select status_id from cases.cases where id = $1`,
    [caseId],
  );
  return rows[0]!.status_id;
}
async function waitForStatus(caseId: number, status: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await statusOf(caseId)) !== status) {
    if (Date.now() > deadline)
      throw new Error(`case ${caseId} is ${await statusOf(caseId)}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

let caseId: number;
let otherCase: number;
let pdf: Uint8Array;
let jpg: Buffer;
let pdfKey: string;
let jpgKey: string;

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { pollingIntervalSeconds: 0.5 },
  });
  for (const [tenant, username] of [
    ['acme', 'manager'],
    ['acme', 'readonly'],
    ['acme', 'merchant.user'],
    ['northbank', 'manager'],
  ] as const) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status).toBe(200);
    tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }
  const { rows } = await t.db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 2`,
  );
  [caseId, otherCase] = rows.map((r) => Number(r.id)) as [number, number];
  pdf = await evidencePdf([
    [`Paid with card ${TEST_PAN}`, 'Order 1001'],
    null,
    ['Delivered on 2099-01-02', 'Signed by the cardholder'],
  ]);
  jpg = flatJpeg(320, 240, 60);
  const token = tokens.get('acme:manager')!;
  pdfKey = await uploadFile(stack.gatewayUrl, 'acme', token, caseId, pdf, 'invoice.pdf', 'application/pdf');
  jpgKey = await uploadFile(stack.gatewayUrl, 'acme', token, caseId, jpg, 'receipt.jpg', 'image/jpeg');
}, 90_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const files = (ops: { pdf?: object[]; jpg?: object[] } = {}) => [
  {
    s3_key: jpgKey,
    filename: 'receipt.jpg',
    content_type: 'image/jpeg',
    size: jpg.length,
    order_num: 0,
    ...(ops.jpg ? { page_ops: ops.jpg } : {}),
  },
  {
    s3_key: pdfKey,
    filename: 'invoice.pdf',
    content_type: 'application/pdf',
    size: pdf.length,
    order_num: 1,
    ...(ops.pdf ? { page_ops: ops.pdf } : {}),
  },
];
const uploadBody = (extra: object) => ({
  case_id: caseId,
  origin: 2,
  templates: [],
  qc_review: false,
  is_reupload: false,
  comment: null,
  ...extra,
});

describe('packet preview, checks and arrangement', { timeout: 120_000 }, () => {
  let masked: PacketPreview;

  it('previews the reordered packet with its checks, and serves its PDF to the case only', async () => {
    const r = await api('manager', 'POST', '/api/docs/representment/preview', {
      case_id: caseId,
      files: files(),
      templates: [],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const p = r.json as unknown as PacketPreview;
    expect(p.pages).toBe(4);
    expect(p.documents.map((d) => [d.filename, d.sha256])).toEqual([
      ['receipt.jpg', sha(jpg)],
      ['invoice.pdf', sha(pdf)],
    ]);
    expect(p.page_map.map((x) => [x.page, x.document, x.source_page])).toEqual([
      [1, 0, 0],
      [2, 1, 0],
      [3, 1, 1],
      [4, 1, 2],
    ]);
    expect(p.checks.map((c) => [c.code, c.level, c.page])).toEqual([
      ['pan', 'blocked', 2],
      ['blank', 'warning', 3],
      ['date_after_due', 'warning', 4],
    ]);
    expect(p.checks[0]!.message).toBe(E.pan(2, '•••• 1111'));
    expect(p.checks[0]!.mask).toMatchObject({ document: 1, page: 0 });

    const served = await getPdf('manager', p.pdf_path);
    expect(served.status).toBe(200);
    expect(sha(served.body)).toBe(p.sha256);
    expect(served.body.length).toBe(p.size);
    // Another tenant's user cannot read it; a read-only user cannot preview.
    expect((await getPdf('manager', p.pdf_path, 'northbank')).status).toBe(404);
    const ro = await api('readonly', 'POST', '/api/docs/representment/preview', {
      case_id: caseId,
      files: files(),
      templates: [],
    });
    expect(ro.status).toBe(403);
    // A key issued for this case is refused for another.
    const foreign = await api('manager', 'POST', '/api/docs/representment/preview', {
      case_id: otherCase,
      files: files(),
      templates: [],
    });
    expect(foreign.status).toBe(400);
    expect(await statusOf(caseId)).toBe(1);
  });

  it('refuses an upload that shows a card number, changing nothing', async () => {
    const r = await api('manager', 'POST', '/api/docs/representment', uploadBody({ files: files() }));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(E.pan(2, '•••• 1111'));
    expect(await statusOf(caseId)).toBe(1);
    const { rows } = await t.db.query(`select 1 from docs.representment_versions where case_id = $1`, [
      caseId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('masks the number, removes the blank page and turns the receipt', async () => {
    const first = (
      await api('manager', 'POST', '/api/docs/representment/preview', {
        case_id: caseId,
        files: files(),
        templates: [],
      })
    ).json as unknown as PacketPreview;
    const mask = first.checks.find((c) => c.code === 'pan')!.mask!;
    const r = await api('manager', 'POST', '/api/docs/representment/preview', {
      case_id: caseId,
      files: files({
        pdf: [
          { op: 'mask', page: mask.page, boxes: mask.boxes },
          { op: 'remove', page: 1 },
        ],
        jpg: [{ op: 'rotate', page: 0, degrees: 90 }],
      }),
      templates: [],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    masked = r.json as unknown as PacketPreview;
    expect(masked.pages).toBe(3);
    expect(masked.page_map.map((x) => [x.document, x.source_page, x.rotation, x.masked])).toEqual([
      [0, 0, 90, false],
      [1, 0, 0, true],
      [1, 2, 0, false],
    ]);
    expect(masked.checks.map((c) => c.code)).toEqual(['date_after_due']);
    // Refusals of impossible operations.
    const bad = await api('manager', 'POST', '/api/docs/representment/preview', {
      case_id: caseId,
      files: files({ pdf: [{ op: 'remove', page: 7 }] }),
      templates: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(E.noSuchPage('invoice.pdf', 8));
  });

  it('uploads with the warnings accepted; the compiled packet is the preview byte for byte', async () => {
    const previewBody = (await getPdf('manager', masked.pdf_path)).body;
    const first = (
      await api('manager', 'POST', '/api/docs/representment/preview', {
        case_id: caseId,
        files: files(),
        templates: [],
      })
    ).json as unknown as PacketPreview;
    const mask = first.checks.find((c) => c.code === 'pan')!.mask!;
    const arranged = files({
      pdf: [
        { op: 'mask', page: mask.page, boxes: mask.boxes },
        { op: 'remove', page: 1 },
      ],
      jpg: [{ op: 'rotate', page: 0, degrees: 90 }],
    });
    // Acceptance is for the packet previewed: another hash is refused.
    const stale = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      uploadBody({
        files: arranged,
        accepted_warnings: { note: 'Delivery date is the carrier scan', sha256: 'a'.repeat(64) },
      }),
    );
    expect(stale.status).toBe(400);
    expect(stale.json.message).toBe(E.previewChanged);

    const r = await api(
      'manager',
      'POST',
      '/api/docs/representment',
      uploadBody({
        files: arranged,
        accepted_warnings: { note: 'Delivery date is the carrier scan', sha256: masked.sha256 },
      }),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);

    const packet = await api('manager', 'GET', `/api/docs/representment/${caseId}/packet`);
    expect(packet.status).toBe(200);
    const c = packet.json as unknown as CompiledPacket;
    expect(c.sha256).toBe(masked.sha256);
    expect(c.page_map).toEqual(masked.page_map);
    expect(c.page_map.map((p) => c.documents[p.document]!.sha256)).toEqual([sha(jpg), sha(pdf), sha(pdf)]);
    const compiled = await getPdf('manager', c.pdf_path);
    expect(compiled.status).toBe(200);
    expect(compiled.body.equals(previewBody)).toBe(true);

    const { rows } = await t.db.query<{ action: string }>(
      `select action from cases.case_history where case_id = $1 and action like 'Representment v1 uploaded%'`,
      [caseId],
    );
    expect(rows[0]!.action).toBe(
      `Representment v1 uploaded (2 document(s), 3 page(s)). ${E.acceptedHistory(1, 'Delivery date is the carrier scan')}`,
    );
    expect(
      (await api('manager', 'GET', `/api/docs/representment/${caseId}/packet`, undefined, 'northbank'))
        .status,
    ).toBe(404);
  });
});

describe('the case builder packet preview', { timeout: 120_000 }, () => {
  it('puts the case summary first and names the required document types the packet lacks', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 1 and id <> all($1::bigint[])
       order by id desc limit 1`,
      [[caseId, otherCase]],
    );
    const builderCase = Number(rows[0]!.id);
    const link = await api(
      'manager',
      'GET',
      `/api/docs/builder/upload-link?case_id=${builderCase}&filename=r.jpg&content_type=image/jpeg`,
    );
    expect(link.status).toBe(200);
    const form = link.json as unknown as { url: string; fields: Record<string, string> };
    const { postForm } = await import('../../support/representment-upload');
    expect([200, 201, 204]).toContain(
      (await postForm(stack.gatewayUrl, 'acme', form, jpg, 'r.jpg', 'image/jpeg')).status,
    );
    const types = await api('manager', 'GET', `/api/builder/gen/doctypes?case_id=${builderCase}&limit=999`);
    expect(types.status).toBe(200);
    const docTypes = (
      types.json as unknown as { data: Array<{ id: number; name: string; required: boolean }> }
    ).data;
    const body = {
      case_id: builderCase,
      files: [
        {
          s3_key: form.fields.key!,
          filename: 'r.jpg',
          content_type: 'image/jpeg',
          size: jpg.length,
          order_num: 0,
          upload_doc_type_id: docTypes[0]!.id,
        },
      ],
      templates: [],
    };
    const r = await api('manager', 'POST', '/api/docs/builder/preview', body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const p = r.json as unknown as PacketPreview;
    expect(p.documents.map((d) => [d.kind, d.filename])).toEqual([
      ['generated', `case-summary-${builderCase}.pdf`],
      ['file', 'r.jpg'],
    ]);
    const missing = docTypes.filter((d) => d.required && d.id !== docTypes[0]!.id).map((d) => d.name);
    expect(p.checks.filter((c) => c.code === 'missing_doc_type').map((c) => [c.level, c.message])).toEqual(
      missing.map((name) => ['blocked', `Please add a document for ${name}.`]),
    );
    expect((await getPdf('manager', p.pdf_path)).status).toBe(200);
    // Without the case-builder role, or from another tenant: refused.
    expect((await api('merchant.user', 'POST', '/api/docs/builder/preview', body)).status).toBe(403);
    // (northbank's manager has no case-builder role there: the gateway refuses before any lookup.)
    expect((await api('manager', 'POST', '/api/docs/builder/preview', body, 'northbank')).status).toBe(403);
  });
});
