import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, REPRESENTMENT_MESSAGES as M } from '@portal/contracts';
import { resolveDocsLinkSecret, uploadLinkPurge, uploadLinkPurgeJob } from '@portal/docs-service';
import { enqueue, JobWorker } from '@portal/jobs';
import { startStack, type Stack } from '@portal/runner';
import { deriveObjectSecret, FilesystemObjectStore, FS_DOWNLOAD_URL, FS_UPLOAD_URL } from '@portal/storage';
import { callGateway } from '../../support/gateway-client';
import { makePdf, uploadFile } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The hourly purge of docs.representment_upload_links (issue 12): used links
 * go; links expired more than the grace period ago go with the file posted
 * to them; recent ones stay; every tenant is covered; the upload call
 * refuses a key past its grace even before the purge; each run schedules the
 * next hour once, and the migrate step started the chain. Preview PDFs (issue
 * 34) not previewed again for a day go too.
 */
let t: TestEnv;
let stack: Stack;
let store: FilesystemObjectStore;
let worker: JobWorker | undefined;
const tokens = new Map<string, string>();
const HOUR = 3600 * 1000;

const api = (tenant: string, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(tenant), body });

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const tenant of ['acme', 'northbank']) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username: 'manager', password: DEMO_PASSWORD },
    });
    tokens.set(tenant, r.json.access_token as string);
  }
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

async function newCases(tenant: string, n: number): Promise<number[]> {
  const { rows } = await t.db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = $1 and status_id = 1 order by id limit $2`,
    [tenant, n],
  );
  return rows.map((r) => Number(r.id));
}
/** Moves a link's expiry into the past, as if it had been issued that long ago. */
const expireAgo = (key: string, ms: number) =>
  t.db.query(`update docs.representment_upload_links set expires_at = $2 where s3_key = $1`, [
    key,
    new Date(Date.now() - ms).toISOString(),
  ]);
const linkExists = async (key: string) =>
  (await t.db.query(`select 1 from docs.representment_upload_links where s3_key = $1`, [key])).rows.length ===
  1;
const purgeJobs = async () =>
  (
    await t.db.query<{ id: string; state: string; singleton_key: string; tenant: string; result: unknown }>(
      `select id, state, singleton_key, tenant, result from jobs.job_status where kind = $1 order by created_at`,
      [uploadLinkPurgeJob.name],
    )
  ).rows;
const startAfterOf = async (id: string) =>
  new Date(
    (await t.db.query<{ start_after: Date }>(`select start_after from pgboss.job where id = $1`, [id]))
      .rows[0]!.start_after,
  ).getTime();
const body = (caseId: number, key: string) => ({
  case_id: caseId,
  origin: 2,
  files: [{ s3_key: key, filename: 'x.pdf', content_type: 'application/pdf', size: 1, order_num: 0 }],
  templates: [],
  qc_review: false,
  is_reupload: false,
});

describe('upload link purge', () => {
  it('the migrate step scheduled the first run at the start of the next hour, once', async () => {
    const jobs = await purgeJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'queued', tenant: 'system' });
    const slot = Number(jobs[0]!.singleton_key.replace('slot-', ''));
    expect((await startAfterOf(jobs[0]!.id)) % HOUR).toBe(0);
    expect(await startAfterOf(jobs[0]!.id)).toBe(slot * HOUR);
    // Starting it again (another migrate, another instance) adds nothing while that run is queued.
    const again = await t.db.transaction((tx) => uploadLinkPurge.schedule(tx, (slot - 1) * HOUR + 5));
    expect(again).toEqual({ id: jobs[0]!.id, created: false });
  });

  it('removes used links and links expired past the grace (with their files), keeps the rest, in every tenant', async () => {
    const [acmeCase, abandonedCase, recentCase, freshCase] = (await newCases('acme', 4)) as [
      number,
      number,
      number,
      number,
    ];
    const [northbankCase] = (await newCases('northbank', 1)) as [number];
    const pdf = await makePdf(1);
    const up = (caseId: number, tenant = 'acme') =>
      uploadFile(stack.gatewayUrl, tenant, tokens.get(tenant)!, caseId, pdf, 'x.pdf', 'application/pdf');

    // used: named by an accepted upload
    const used = await up(acmeCase);
    const accepted = await api('acme', 'POST', '/api/docs/representment', body(acmeCase, used));
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    // abandoned: posted, never named, expired two hours ago
    const abandoned = await up(abandonedCase);
    await expireAgo(abandoned, 2 * HOUR);
    // recent: expired ten minutes ago (within the grace), still usable
    const recent = await up(recentCase);
    await expireAgo(recent, 10 * 60 * 1000);
    // fresh: not expired
    const fresh = await up(freshCase);
    // another tenant's abandoned upload
    const foreign = await up(northbankCase, 'northbank');
    await expireAgo(foreign, 3 * HOUR);
    expect(await store.head('acme', abandoned)).not.toBeNull();

    // Past its grace, the upload call refuses the key by itself, purge or not; within it, the key works.
    const late = await api('acme', 'POST', '/api/docs/representment', body(abandonedCase, abandoned));
    expect(late.status, JSON.stringify(late.json)).toBe(400);
    expect(late.json.message).toBe(M.linkExpired);

    // One run, now (the queued one waits for its hour).
    const slot = Math.floor(Date.now() / HOUR);
    const run = await t.db.transaction((tx) =>
      enqueue(
        tx,
        uploadLinkPurgeJob,
        { slot },
        { tenant: 'system', createdBy: null, singletonKey: `slot-${slot}` },
      ),
    );
    worker = new JobWorker({
      db: t.db,
      env: t.env,
      log: t.deps.log,
      jobs: [uploadLinkPurgeJob],
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
    await expect
      .poll(async () => (await purgeJobs()).find((j) => j.id === run.id)?.state, { timeout: 20_000 })
      .toBe('done');
    const done = (await purgeJobs()).find((j) => j.id === run.id)!;
    expect(done.result).toEqual({ used: 1, expired: 2, objects: 2, previews: 0 });

    expect(await linkExists(used)).toBe(false);
    expect(await linkExists(abandoned)).toBe(false);
    expect(await linkExists(foreign)).toBe(false);
    expect(await linkExists(recent)).toBe(true);
    expect(await linkExists(fresh)).toBe(true);
    expect(await store.head('acme', abandoned)).toBeNull();
    expect(await store.head('northbank', foreign)).toBeNull();
    // The used file belongs to its version: kept.
    expect(await store.head('acme', used)).not.toBeNull();

    // Refusals stay as they were: the used key cannot be named again; the recent one still works.
    const reuse = await api('acme', 'POST', '/api/docs/representment', body(freshCase, used));
    expect(reuse.status).toBe(400);
    expect(reuse.json.message).toBe(M.foreignKey);
    const ok = await api('acme', 'POST', '/api/docs/representment', body(recentCase, recent));
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);

    // The run scheduled the next hour, which is the one the migrate step had queued: still one queued run.
    const queued = (await purgeJobs()).filter((j) => j.state === 'queued');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.singleton_key).toBe(`slot-${slot + 1}`);
    expect(await startAfterOf(queued[0]!.id)).toBe((slot + 1) * HOUR);
  }, 60_000);

  it('removes preview PDFs not previewed again for a day, in every tenant, and keeps recent ones', async () => {
    const pdf = await makePdf(1);
    const preview = async (tenant: string, caseId: number) => {
      const key = await uploadFile(
        stack.gatewayUrl,
        tenant,
        tokens.get(tenant)!,
        caseId,
        pdf,
        'x.pdf',
        'application/pdf',
      );
      const r = await api(tenant, 'POST', '/api/docs/representment/preview', {
        case_id: caseId,
        files: [{ s3_key: key, filename: 'x.pdf', content_type: 'application/pdf', size: pdf.length }],
        templates: [],
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const { rows } = await t.db.query<{ s3_key: string }>(
        `select s3_key from docs.packet_previews where tenant_id = $1 order by stored_at desc limit 1`,
        [tenant],
      );
      return { key: rows[0]!.s3_key, path: r.json.pdf_path as string };
    };
    const [oldCase, freshCase] = (await newCases('acme', 2)) as [number, number];
    const [foreignCase] = (await newCases('northbank', 1)) as [number];
    const stale = await preview('acme', oldCase);
    const fresh = await preview('acme', freshCase);
    const foreign = await preview('northbank', foreignCase);
    const age = (tenant: string, key: string, ms: number) =>
      t.db.query(`update docs.packet_previews set stored_at = $3 where tenant_id = $1 and s3_key = $2`, [
        tenant,
        key,
        new Date(Date.now() - ms).toISOString(),
      ]);
    await age('acme', stale.key, 25 * HOUR);
    await age('acme', fresh.key, 23 * HOUR);
    await age('northbank', foreign.key, 48 * HOUR);

    // An hour already run: the job's own slot does not matter, the next one stays the queued one.
    const slot = Math.floor(Date.now() / HOUR) - 5;
    const run = await t.db.transaction((tx) =>
      enqueue(
        tx,
        uploadLinkPurgeJob,
        { slot },
        { tenant: 'system', createdBy: null, singletonKey: `slot-${slot}` },
      ),
    );
    await expect
      .poll(async () => (await purgeJobs()).find((j) => j.id === run.id)?.state, { timeout: 20_000 })
      .toBe('done');
    expect((await purgeJobs()).find((j) => j.id === run.id)!.result).toMatchObject({ previews: 2 });

    expect(await store.head('acme', stale.key)).toBeNull();
    expect(await store.head('northbank', foreign.key)).toBeNull();
    expect(await store.head('acme', fresh.key)).not.toBeNull();
    const rows = await t.db.query<{ s3_key: string }>(`select s3_key from docs.packet_previews`);
    expect(rows.rows.map((r) => r.s3_key)).toEqual([fresh.key]);
    // The viewer of a purged preview answers 404 (preview again); the recent one still serves.
    expect((await api('acme', 'GET', stale.path)).status).toBe(404);
    expect((await api('acme', 'GET', fresh.path)).status).toBe(200);
  }, 60_000);
});
