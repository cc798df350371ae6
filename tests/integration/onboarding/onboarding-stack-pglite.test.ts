import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, ONBOARDING_MESSAGES } from '@portal/contracts';
import {
  CallInTransactionError,
  createLogger,
  loadEnv,
  MemoryCache,
  openPglite,
  PROCESS_NAMES,
  ServiceClient,
  systemContext,
  type Db,
} from '@portal/core';
import { migrateAll, seedAll, startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { postForm, type UploadLink } from '../../support/representment-upload';

/**
 * Issue 28: onboarding on the embedded PGlite (`npm start` without DATABASE_URL) through the real
 * services. PGlite has one connection shared by every service: when the case service asked the
 * user service for taken usernames inside its transaction, the user service waited for that
 * connection until the call timed out (10 s) and the check was skipped. Now the usernames are
 * asked before the transaction, so a taken username is flagged, on create, on edit and on
 * finalize, and the finalize job creates the main admin through the user service.
 * The assertions are on what the answers say, not on time.
 */
let dir: string;
let db: Db;
let stack: Stack;
let token: string;
const secret = randomBytes(32).toString('base64url');
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const run = Date.now().toString(36);
const TAKEN = 'This username is already taken.';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'onboarding-stack-pglite-'));
  db = await openPglite(join(dir, 'db'));
  await migrateAll(db);
  await seedAll(db, '100');
  const env = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATA_DIR: dir,
    INTERNAL_CONTEXT_SECRET: secret,
  });
  const log = createLogger(env, 'test');
  stack = await startStack(
    { env, db, cache: new MemoryCache(), log, contextSecret: secret },
    { gatewayPort: 0, gatewayHost: '127.0.0.1', metricsPort: null, worker: { pollingIntervalSeconds: 0.5 } },
  );
  token = await signInThroughGateway(stack.gatewayUrl, 'acme', 'admin');
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, 'acme', method, path, { token, body });

const HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';
const row = (n: string, username: string) =>
  [
    `Pgl ${run} ${n}`,
    `DBA ${n}`,
    '',
    'Basic',
    'US',
    '',
    '1 Main St',
    'Austin',
    'TX',
    '78701',
    '+1 512 555 0100',
    'Ona',
    `Board${n}`,
    `pgl.${run}.${n}@example.com`,
    username,
    '+1 512 555 0101',
  ].join(',');

async function upload(csv: string): Promise<string> {
  const link = await call('GET', '/api/cm/onboarding/upload?filename=merchants.csv');
  expect(link.status, JSON.stringify(link.json)).toBe(200);
  const form = link.json as unknown as UploadLink;
  const posted = await postForm(
    stack.gatewayUrl,
    'acme',
    form,
    Buffer.from(csv, 'utf8'),
    'merchants.csv',
    'text/csv',
  );
  expect(posted.status, posted.body).toBeLessThan(300);
  return form.fields.key!;
}

interface Rec {
  id: number;
  cells: Record<string, { value: string; err_messages: string[] }>;
}
const records = async (id: number) => {
  const r = await call('GET', `/api/cm/onboarding/${id}/records`);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json as { data: Rec[]; status_id: number; finalized_date: string | null; message: string | null };
};

describe('onboarding on embedded PGlite through the real services (issue 28)', () => {
  let id: number;

  it('create asks the user service and flags a taken username (no lock wait, no skipped check)', async () => {
    const key = await upload(`${HEADER}\n${row('1', 'Merchant.Admin')}\n${row('2', `pgl.${run}.2`)}\n`);
    const created = await call('POST', '/api/cm/onboarding', {
      s3_key: key,
      type: 'merchant',
      merchant_id: A1,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.message).toBe(ONBOARDING_MESSAGES.uploaded);
    id = created.json.id as number;
    const { data } = await records(id);
    expect(data.map((r) => r.cells.username!.err_messages)).toEqual([[TAKEN], []]);
  });

  it('an edit that brings in another taken username is flagged, a free one clears it', async () => {
    const { data } = await records(id);
    const edit = await call('PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [{ id: data[1]!.id, cells: { username: 'agent' } }],
    });
    expect(edit.status, JSON.stringify(edit.json)).toBe(200);
    expect(edit.json.total_failing_validation).toBe(2);
    expect((await records(id)).data[1]!.cells.username!.err_messages).toEqual([TAKEN]);

    const fix = await call('PATCH', `/api/cm/onboarding/${id}/records`, {
      records: [
        { id: data[0]!.id, cells: { username: `pgl.${run}.1` } },
        { id: data[1]!.id, cells: { username: `pgl.${run}.2` } },
      ],
    });
    expect(fix.status, JSON.stringify(fix.json)).toBe(200);
    expect(fix.json.total_failing_validation).toBe(0);
  });

  it('finalize checks again and the job creates the merchants and their main admins through the user service', async () => {
    const fin = await call('PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 });
    expect(fin.status, JSON.stringify(fin.json)).toBe(200);
    let file = await records(id);
    for (let i = 0; i < 150 && !file.finalized_date; i++) {
      await new Promise((r) => setTimeout(r, 200));
      file = await records(id);
    }
    expect(file.finalized_date).not.toBeNull();
    expect(file.status_id).toBe(3);
    expect(file.message).toMatch(/^Created 2 merchant\(s\) and their main admin users\.$/);
    const users = await db.query<{ username: string; role_id: number }>(
      `select username, role_id from users.users where tenant = 'acme' and username like $1 order by username`,
      [`pgl.${run}.%`],
    );
    expect(users.rows).toEqual([
      { username: `pgl.${run}.1`, role_id: 4 },
      { username: `pgl.${run}.2`, role_id: 4 },
    ]);
  });

  it('a service call made inside a PGlite transaction throws at once instead of waiting for the connection', async () => {
    const users = new ServiceClient(stack.serviceUrls.user, secret);
    const ctx = systemContext('acme', 'guard-test');
    // Outside a transaction the same call answers.
    const outside = await users.request<{ taken: string[] }>('POST', '/users/internal/usernames-taken', ctx, {
      usernames: ['admin'],
    });
    expect(outside.taken).toEqual(['admin']);
    const inside = db.transaction(async (tx) => {
      await tx.query('select 1');
      return users.request('POST', '/users/internal/usernames-taken', ctx, { usernames: ['admin'] });
    });
    await expect(inside).rejects.toBeInstanceOf(CallInTransactionError);
    await expect(inside).rejects.toThrow(
      /^service call to POST http:\/\/127\.0\.0\.1:\d+\/users\/internal\/usernames-taken inside a database transaction/,
    );
  });
});
