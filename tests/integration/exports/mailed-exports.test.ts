import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, EXPORT_MESSAGES } from '@portal/contracts';
import { once } from '@portal/jobs';
import { startStack, type Stack } from '@portal/runner';
import { caseMailedExportJob } from '../../../services/case/src/exports/mailed-export-job';
import { callGateway, type GatewayAnswer } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { send } from '../storage/multipart';
import { parseCsv } from '../../support/csv';

/**
 * Mailed exports (@portal/exports): with EXPORT_MAIL_THRESHOLD_ROWS = 5, an
 * all-rows export of a longer list answers 202 with the spec's notice, a job
 * writes the file of exactly the caller's scope to the object store and mails
 * a /download?loc= link on the tenant's host, which the download page serves
 * to the same tenant only. Shorter lists and page exports still stream.
 */
const THRESHOLD = 5;
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await createTestEnv({ EXPORT_MAIL_THRESHOLD_ROWS: String(THRESHOLD) });
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { pollingIntervalSeconds: 0.5 },
  });
  for (const [tenant, username] of [
    ['acme', 'admin'],
    ['acme', 'merchant.admin'],
    ['northbank', 'admin'],
  ] as const) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    if (r.status !== 200) throw new Error(`${tenant}/${username}: ${r.status}`);
    tokens.set(`${tenant}/${username}`, r.json.access_token as string);
  }
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const call = (user: string, path: string, tenant = 'acme'): Promise<GatewayAnswer> =>
  callGateway(stack.gatewayUrl, tenant, 'GET', path, { token: tokens.get(`${tenant}/${user}`) });

/** The raw answer (a file), as a browser downloads it. */
const fetchRaw = (user: string, path: string, tenant = 'acme') =>
  send(`${stack.gatewayUrl}${path}`, {
    headers: { host: `${tenant}.localhost`, authorization: `Bearer ${tokens.get(`${tenant}/${user}`)}` },
  });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}
function mailsTo(to: string): Mail[] {
  const dir = join(t.env.DATA_DIR, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Mail)
    .filter((m) => m.to === to && m.subject === EXPORT_MESSAGES.mailSubject);
}

/** The job's end state and the mail that carries its link. */
async function finished(jobId: string, to: string): Promise<{ key: string; link: string }> {
  const job = await waitFor('the export job', async () => {
    const { rows } = await t.db.query<{ state: string; message: string | null }>(
      'select state, message from jobs.job_status where id = $1',
      [jobId],
    );
    return rows[0] && ['done', 'failed'].includes(rows[0].state) ? rows[0] : undefined;
  });
  expect(job, JSON.stringify(job)).toMatchObject({ state: 'done' });
  const mail = await waitFor('the mail', () => mailsTo(to).find((m) => m.text.includes(jobId)));
  const link = /(\S+\/download\?loc=(\S+))/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return { link: link![1]!, key: link![2]! };
}

/** Resolves a mailed key through the download page and fetches the file. */
async function downloadMailed(user: string, key: string, tenant = 'acme'): Promise<string> {
  const page = await call(user, `/api/docs/downloadable?loc=${encodeURIComponent(key)}`, tenant);
  expect(page.status, JSON.stringify(page.json)).toBe(200);
  const url = page.json.url as string;
  const file = await send(url.startsWith('http') ? url : `${stack.gatewayUrl}${url}`, {
    headers: { host: `${tenant}.localhost` },
  });
  expect(file.status).toBe(200);
  return file.body.toString('utf8').replace(/^\uFEFF/, '');
}

/** Every case id the list shows this user (paged as the grid pages). */
async function listedCaseIds(user: string): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; ; start += 1000) {
    const r = await call(user, `/api/cm/cases?start=${start}&limit=1000`);
    expect(r.status).toBe(200);
    const data = r.json.data as { id: number }[];
    ids.push(...data.map((c) => Number(c.id)));
    if (data.length < 1000) return ids;
  }
}

describe('mailed exports above EXPORT_MAIL_THRESHOLD_ROWS', () => {
  it('cases: 202 with the notice; the mailed file holds exactly the caller scope', async () => {
    const r = await call('merchant.admin', '/api/cm/cases.csv?headers=id,merchant_id');
    expect(r.status, JSON.stringify(r.json)).toBe(202);
    expect(r.json.message).toBe(
      "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!",
    );
    expect(r.json.job_id).toMatch(/^[0-9a-f-]{36}$/);
    const jobId = r.json.job_id as string;

    const { key, link } = await finished(jobId, 'merchant.admin@bluesky.example');
    expect(link).toBe(`http://acme.localhost:8080/download?loc=${key}`);
    expect(key).toMatch(new RegExp(`^acme/exports/${jobId}/chargebacks-\\d{4}-\\d{2}-\\d{2}\\.csv$`));

    const rows = parseCsv(await downloadMailed('merchant.admin', key));
    expect(rows[0]).toEqual(['CB ID', 'Merchant Id']);
    const exported = rows.slice(1).map((row) => Number(row[0]));
    const listed = await listedCaseIds('merchant.admin');
    expect(exported.length).toBeGreaterThan(THRESHOLD);
    expect([...exported].sort((a, b) => a - b)).toEqual([...listed].sort((a, b) => a - b));
    // Nothing of another merchant: every exported case is in merchant.admin's subtree, which is not the tenant.
    const { rows: subtree } = await t.db.query<{ id: string }>(
      `with recursive s(id) as (select 1000011::bigint union all
         select m.id from cases.merchants m join s on m.parent_id = s.id where m.tenant_id = 'acme')
       select id from s`,
    );
    const allowed = new Set(subtree.map((s) => Number(s.id)));
    for (const row of rows.slice(1)) expect(allowed.has(Number(row[1]))).toBe(true);
    const { rows: all } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.cases where tenant_id = 'acme'`,
    );
    expect(exported.length).toBeLessThan(all[0]!.n);
  }, 60_000);

  it('the mailed link resolves for the same tenant only', async () => {
    const r = await call('merchant.admin', '/api/cm/cases.xlsx');
    expect(r.status).toBe(202);
    const { key } = await finished(r.json.job_id as string, 'merchant.admin@bluesky.example');
    expect(key).toMatch(/\/chargebacks-[\d-]+\.xlsx$/);
    const same = await call('admin', `/api/docs/downloadable?loc=${encodeURIComponent(key)}`);
    expect(same.status).toBe(200);
    const other = await call('admin', `/api/docs/downloadable?loc=${encodeURIComponent(key)}`, 'northbank');
    expect(other.status).toBe(404);
    // The file is a workbook (a zip).
    const file = await send(`${stack.gatewayUrl}${same.json.url as string}`, {
      headers: { host: 'acme.localhost' },
    });
    expect(file.body.subarray(0, 2).toString('latin1')).toBe('PK');
  }, 60_000);

  it('a retried attempt neither writes the file again nor mails twice', async () => {
    const r = await call('merchant.admin', '/api/cm/cases.csv?headers=id');
    expect(r.status).toBe(202);
    const jobId = r.json.job_id as string;
    const first = await finished(jobId, 'merchant.admin@bluesky.example');
    const { rows } = await t.db.query<{ data: { input: unknown }; created_by: string }>(
      `select j.data, s.created_by from pgboss.job j join jobs.job_status s on s.id = j.id where j.id = $1`,
      [jobId],
    );
    const data = rows[0]!.data.input as Parameters<typeof caseMailedExportJob.handler>[0]['data'];
    // The same job once more, as a worker that lost the completion would run it.
    const again = (await caseMailedExportJob.handler({
      id: jobId,
      kind: caseMailedExportJob.name,
      tenant: 'acme',
      createdBy: Number(rows[0]!.created_by),
      data,
      attempt: 2,
      maxAttempts: 4,
      db: t.db,
      env: t.env,
      log: t.deps.log,
      signal: new AbortController().signal,
      progress: async () => {},
      once: (step, fn) => once(t.db, jobId, step, fn),
    })) as { key: string };
    expect(again.key).toBe(first.key);
    // The mail was queued once (a mail.send job committed with the 'mail' step), and sent once.
    const queued = await t.db.query(
      `select 1 from pgboss.job where name = 'mail.send' and data->'input'->>'reason' = $1`,
      [`mailed-export ${jobId}`],
    );
    expect(queued.rows).toHaveLength(1);
    expect(mailsTo('merchant.admin@bluesky.example').filter((m) => m.text.includes(jobId))).toHaveLength(1);
  }, 60_000);

  it('alerts: 202 and the file holds the rows the grid lists', async () => {
    const r = await call('admin', '/api/cm/svc/alerts.csv');
    expect(r.status, JSON.stringify(r.json)).toBe(202);
    expect(r.json.message).toBe(EXPORT_MESSAGES.started);
    const { key } = await finished(r.json.job_id as string, 'admin@example.com');
    const rows = parseCsv(await downloadMailed('admin', key));
    const listed = await call('admin', '/api/cm/svc/alerts?limit=0');
    expect(rows.length - 1).toBe((listed.json.pagination as { total: number }).total);
  }, 60_000);

  it('users: 202 for the tenant list; the file holds the users the grid counts', async () => {
    const r = await call('admin', '/api/users/users.csv');
    expect(r.status, JSON.stringify(r.json)).toBe(202);
    expect(r.json.message).toBe(EXPORT_MESSAGES.started);
    const { key } = await finished(r.json.job_id as string, 'admin@example.com');
    expect(key).toMatch(/^acme\/exports\/[0-9a-f-]{36}\/users-[\d-]+\.csv$/);
    const rows = parseCsv(await downloadMailed('admin', key));
    const listed = await call('admin', '/api/users/users?limit=0');
    expect(rows.length - 1).toBe((listed.json.pagination as { total: number }).total);
    const usernames = rows.slice(1).map((row) => row[3]);
    expect(usernames).toContain('merchant.admin');
    expect(usernames).not.toContain(undefined);
  }, 60_000);
});

describe('exports at or below the threshold, and page exports, still stream', () => {
  it('a short list streams the file', async () => {
    const [one] = await listedCaseIds('merchant.admin');
    const r = await fetchRaw('merchant.admin', `/api/cm/cases.csv?headers=id&search=${one}`);
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('text/csv');
    const users = await fetchRaw('merchant.admin', '/api/users/users.csv');
    expect(users.status).toBe(200);
    expect(parseCsv(users.body.toString('utf8')).length - 1).toBeLessThanOrEqual(THRESHOLD);
  });

  it('a page export streams whatever the list length', async () => {
    const r = await fetchRaw('merchant.admin', '/api/cm/cases.csv?export_type=page&limit=50&headers=id');
    expect(r.status).toBe(200);
    expect(parseCsv(r.body.toString('utf8').replace(/^\uFEFF/, '')).length - 1).toBe(50);
    const a = await fetchRaw('admin', '/api/cm/svc/alerts.xlsx?export_type=page&limit=10');
    expect(a.status).toBe(200);
    expect(String(a.headers['content-type'])).toContain('spreadsheetml');
  });
});
