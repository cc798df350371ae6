import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  DEMO_PASSWORD,
  REPRESENTMENT_MESSAGES as M,
  type RepresentmentLink,
} from '@portal/contracts';
import { resolveDocsLinkSecret } from '@portal/docs-service';
import { JobWorker } from '@portal/jobs';
import { JOBS, startStack, type Stack } from '@portal/runner';
import {
  deriveObjectSecret,
  FilesystemObjectStore,
  FS_DOWNLOAD_URL,
  FS_UPLOAD_URL,
  type ObjectStore,
} from '@portal/storage';
import { compiledKey } from '../../../services/docs/src/representment/compile';
import { callGateway } from '../../support/gateway-client';
import { makePdf, postForm, uploadFile, type UploadLink } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The compile job's failure branch (issue 12): a representment accepted after
 * its checks whose stored bytes then fail the compile (an upload form posted
 * again after acceptance, an object gone from the store). The stack runs
 * without a worker so that the test changes the store between acceptance and
 * compile; a worker is started afterwards. The version must end `failed`, the
 * case back in Working with the reason in its history, no compiled file, the
 * job failed with a message a person can read, and a new upload must then go
 * the whole way.
 */
let t: TestEnv;
let stack: Stack;
let worker: JobWorker | undefined;
let store: FilesystemObjectStore;
let token = '';

const api = (method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token, body });

async function statusOf(caseId: number): Promise<number> {
  const { rows } = await t.db.query<{ status_id: number }>(
    `select status_id from cases.cases where id = $1`,
    [caseId],
  );
  return rows[0]!.status_id;
}
async function waitForStatus(caseId: number, status: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await statusOf(caseId);
    if (now === status) return;
    if (Date.now() > deadline) throw new Error(`case ${caseId} is ${now}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
async function lastHistory(caseId: number): Promise<string> {
  const { rows } = await t.db.query<{ action: string }>(
    `select action from cases.case_history where case_id = $1 order by id desc limit 1`,
    [caseId],
  );
  return rows[0]!.action;
}
async function versionRow(caseId: number, version: number) {
  const { rows } = await t.db.query<{
    id: number;
    state: string;
    compiled_key: string | null;
    compile_job_id: string;
  }>(
    `select id, state, compiled_key, compile_job_id from docs.representment_versions
      where tenant_id = 'acme' and case_id = $1 and version = $2`,
    [caseId, version],
  );
  return { ...rows[0]!, id: Number(rows[0]!.id) };
}
async function jobOf(id: string) {
  const { rows } = await t.db.query<{ state: string; error: string | null; attempts: number }>(
    `select state, error, attempts from jobs.job_status where id = $1`,
    [id],
  );
  return rows[0]!;
}

/** An upload form for the case, kept so the test can post it again. */
async function uploadForm(caseId: number): Promise<UploadLink> {
  const q = new URLSearchParams({ case_id: String(caseId), filename: 'evidence.pdf' });
  const r = await api('GET', `/api/docs/representment/upload-link?${q}`);
  expect(r.status).toBe(200);
  return r.json as unknown as UploadLink;
}
const uploadBody = (caseId: number, key: string, size: number) => ({
  case_id: caseId,
  origin: 2,
  files: [{ s3_key: key, filename: 'evidence.pdf', content_type: 'application/pdf', size, order_num: 0 }],
  templates: [],
  qc_review: false,
  is_reupload: false,
  comment: null,
});

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const r = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/auth/signin', {
    body: { username: 'manager', password: DEMO_PASSWORD },
  });
  token = r.json.access_token as string;
  // The docs service's own filesystem store (same root and secret).
  store = await FilesystemObjectStore.open({
    root: join(t.env.DATA_DIR, 'objects'),
    secret: deriveObjectSecret(resolveDocsLinkSecret(t.env)),
    uploadUrl: FS_UPLOAD_URL,
    downloadUrl: FS_DOWNLOAD_URL,
    log: t.deps.log,
  });
}, 60_000);
afterAll(async () => {
  await worker?.stop(2);
  await store?.close();
  await stack?.close();
  await t?.close();
});

/** A worker runs only between a spoiled store and the end of a test (a stopped JobWorker cannot start again). */
async function startWorker() {
  worker = new JobWorker({ db: t.db, env: t.env, log: t.deps.log, jobs: JOBS, pollingIntervalSeconds: 0.5 });
  await worker.start();
}
async function stopWorker() {
  await worker?.stop(2);
  worker = undefined;
}

async function failedUpload(
  caseId: number,
  spoil: (form: UploadLink, s: ObjectStore) => Promise<void>,
): Promise<{ versionId: number; jobId: string; key: string }> {
  await stopWorker();
  const pdf = await makePdf(2);
  const form = await uploadForm(caseId);
  const posted = await postForm(stack.gatewayUrl, 'acme', form, pdf, 'evidence.pdf', 'application/pdf');
  expect(posted.status).toBeLessThan(300);
  const accepted = await api(
    'POST',
    '/api/docs/representment',
    uploadBody(caseId, form.fields.key!, pdf.length),
  );
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
  expect(await statusOf(caseId)).toBe(CASE_STATUS.DocCompiling);
  await spoil(form, store);
  await startWorker();
  await waitForStatus(caseId, CASE_STATUS.Working);
  const v = await versionRow(caseId, 1);
  return { versionId: v.id, jobId: v.compile_job_id, key: form.fields.key! };
}

describe('a representment whose stored bytes fail the compile', () => {
  let caseIds: number[] = [];
  beforeAll(async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 3`,
    );
    caseIds = rows.map((r) => Number(r.id));
  });

  it('a file replaced after its checks: failed version, case back in Working, nothing compiled; a new upload goes through', async () => {
    const caseId = caseIds[0]!;
    // The same form posted again after acceptance (it is valid for 15 minutes) with other bytes.
    const {
      versionId,
      jobId,
      key: failedKey,
    } = await failedUpload(caseId, async (form) => {
      const other = Buffer.from('%PDF-1.7\n% not the document that was checked\n');
      const again = await postForm(stack.gatewayUrl, 'acme', form, other, 'evidence.pdf', 'application/pdf');
      expect(again.status).toBeLessThan(300);
    });

    // The version is failed, the job failed at once (no retries of a permanent error) with a readable message.
    const v = await versionRow(caseId, 1);
    expect(v.state).toBe('failed');
    expect(v.compiled_key).toBeNull();
    await expect.poll(async () => (await jobOf(jobId)).state).toBe('failed');
    const job = await jobOf(jobId);
    expect(job.error).toBe(`${M.compileChanged('evidence.pdf')} ${M.compileFailed}`);
    expect(job.attempts).toBe(1);
    expect(await lastHistory(caseId)).toBe(M.compileFailedHistory(1));
    // Nothing half-written: no compiled object in the store.
    expect(await store.head('acme', compiledKey('acme', versionId, caseId))).toBeNull();

    // What the user sees: the document is failed (no link), transport is refused.
    const doc = await api('GET', `/api/docs/representment/${caseId}`);
    expect(doc.status).toBe(200);
    const link = doc.json as unknown as RepresentmentLink;
    expect(link.link).toBeNull();
    expect(link.compiled).toBeNull();
    expect(link.versions.map((x) => [x.version, x.state])).toEqual([[1, 'failed']]);
    const transport = await api('POST', '/api/docs/representment/transport', { case_id: caseId });
    expect(transport.status).toBe(409);

    // The failed version's key stays used: it cannot be named again.
    const reused = await api('POST', '/api/docs/representment', uploadBody(caseId, failedKey, 100));
    expect(reused.status).toBe(400);
    expect(reused.json.message).toBe(M.foreignKey);

    // A new upload (new form, new file) is version 2 and goes the whole way; version 1 is kept.
    const pdf = await makePdf(3);
    const key = await uploadFile(
      stack.gatewayUrl,
      'acme',
      token,
      caseId,
      pdf,
      'evidence.pdf',
      'application/pdf',
    );
    const re = await api('POST', '/api/docs/representment', uploadBody(caseId, key, pdf.length));
    expect(re.status, JSON.stringify(re.json)).toBe(200);
    expect(re.json.version).toBe(2);
    await waitForStatus(caseId, CASE_STATUS.TransportCompleted);
    const after = (await api('GET', `/api/docs/representment/${caseId}`))
      .json as unknown as RepresentmentLink;
    expect(after.versions.map((x) => [x.version, x.state])).toEqual([
      [2, 'compiled'],
      [1, 'failed'],
    ]);
    expect(after.compiled).toMatchObject({ pages: 3 });
    expect(typeof after.link).toBe('string');
  }, 90_000);

  it('a file replaced by another valid PDF is caught too: only the checked bytes are compiled', async () => {
    const caseId = caseIds[2]!;
    const { jobId } = await failedUpload(caseId, async (form) => {
      const other = await makePdf(7);
      const again = await postForm(stack.gatewayUrl, 'acme', form, other, 'evidence.pdf', 'application/pdf');
      expect(again.status).toBeLessThan(300);
    });
    expect((await versionRow(caseId, 1)).state).toBe('failed');
    await expect.poll(async () => (await jobOf(jobId)).state).toBe('failed');
    expect((await jobOf(jobId)).error).toBe(`${M.compileChanged('evidence.pdf')} ${M.compileFailed}`);
  }, 60_000);

  it('a file gone from the store: the same failed end, with the missing file named', async () => {
    const caseId = caseIds[1]!;
    const { jobId } = await failedUpload(caseId, (form, s) => s.delete('acme', form.fields.key!));
    expect((await versionRow(caseId, 1)).state).toBe('failed');
    await expect.poll(async () => (await jobOf(jobId)).state).toBe('failed');
    expect((await jobOf(jobId)).error).toMatch(/^A document of the representment is missing from the store/);
    expect(await lastHistory(caseId)).toBe(M.compileFailedHistory(1));
  }, 60_000);
});
