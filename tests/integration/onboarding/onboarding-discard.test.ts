import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, ONBOARDING_MESSAGES as M } from '@portal/contracts';
import { caseObjectStore } from '../../../services/case/src/onboarding/csv-file';
import { createLogger } from '@portal/core';
import { startHarness, waitFor, type Harness } from './stack-support';

/**
 * Discarding an unfinalized onboarding upload (issue 29): DELETE /api/cm/onboarding/{id} removes the
 * file, its rows and its CSV; scoped (tenant, merchant subtree, feature, not read-only) and audited
 * like the other onboarding writes; a file that is finalizing or finalized is refused and kept.
 */
let h: Harness;
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const run = Date.now().toString(36);
const HEADER =
  'Business Name,DBA,Alias,Service Level,Country,Partner Company ID,Business address,City,State,Zip,Business phone,First name,Last name,Email,Username,Phone';
const row = (n: string) =>
  `Discard ${run} ${n},,,Basic,US,,1 Main St,Austin,TX,78701,+1 512 555 0100,Dee,Scard,dis.${run}.${n}@example.com,dis.${run}.${n},`;

beforeAll(async () => {
  h = await startHarness([
    ['acme', 'admin'],
    ['acme', 'readonly'],
    ['acme', 'merchant.admin'],
    ['northbank', 'admin'],
  ]);
});
afterAll(async () => h?.close());

async function createFile(rows: string[]) {
  const csv = [HEADER, ...rows].join('\r\n');
  const key = await h.upload('admin', '/api/cm/onboarding/upload', csv, 'merchants.csv');
  const r = await h.call('admin', 'POST', '/api/cm/onboarding', {
    s3_key: key,
    type: 'merchant',
    merchant_id: A1,
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return { id: r.json.id as number, key };
}

const counts = async (id: number) =>
  (
    await h.t.db.query<{ files: number; records: number }>(
      `select (select count(*)::int from cases.onboarding_files where id = $1) as files,
              (select count(*)::int from cases.onboarding_records where file_id = $1) as records`,
      [id],
    )
  ).rows[0]!;

describe('discard an onboarding upload', () => {
  it('removes an open file, its rows and its CSV; the call is audited', async () => {
    const { id, key } = await createFile([row('1'), row('2')]);
    expect(await counts(id)).toEqual({ files: 1, records: 2 });
    const store = await caseObjectStore(
      h.t.deps.env,
      createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 't'),
    );
    expect(await store.head('acme', key)).not.toBeNull();

    const r = await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toEqual({ id, message: M.discarded });
    expect(await counts(id)).toEqual({ files: 0, records: 0 });
    expect(await store.head('acme', key).catch(() => null)).toBeNull();
    const files = await h.call('admin', 'GET', '/api/cm/onboarding/files');
    expect((files.json.data as Array<{ id: number }>).some((f) => f.id === id)).toBe(false);
    expect((await h.call('admin', 'GET', `/api/cm/onboarding/${id}/records`)).status).toBe(404);
    // Gone is gone: a second discard finds nothing.
    expect((await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`)).status).toBe(404);

    const audit = await h.t.db.query<{ method: string; route: string; target_ids: Record<string, string> }>(
      `select method, route, target_ids, status from users.audit_log
        where tenant = 'acme' and method = 'DELETE' and route = '/api/cm/onboarding/:id' and target_ids->>'id' = $1`,
      [String(id)],
    );
    expect(audit.rows.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses read-only users, users without the feature and other tenants; changes nothing', async () => {
    const { id } = await createFile([row('3')]);
    expect((await h.call('readonly', 'DELETE', `/api/cm/onboarding/${id}`)).status).toBe(403);
    // merchant_admin has no 'onboarding' feature: the gateway's policy refuses it.
    expect((await h.call('merchant.admin', 'DELETE', `/api/cm/onboarding/${id}`)).status).toBe(403);
    // Another tenant's file is not found (no hint that it exists).
    expect((await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`, undefined, 'northbank')).status).toBe(
      404,
    );
    expect(await counts(id)).toEqual({ files: 1, records: 1 });
    expect((await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`)).status).toBe(200);
  });

  it('refuses a file that is finalizing or finalized (409) and keeps it', async () => {
    const { id } = await createFile([row('4')]);
    const fin = await h.call('admin', 'PATCH', `/api/cm/onboarding/${id}`, { status_id: 3 });
    expect(fin.status, JSON.stringify(fin.json)).toBe(200);
    // Finalizing (status 2) right away, then finalized (3) once the job has run: both refused.
    const early = await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`);
    expect(early.status).toBe(409);
    expect(early.json.message).toBe(M.finalized);
    await waitFor('finalized', async () => {
      const r = await h.call('admin', 'GET', `/api/cm/onboarding/${id}/records`);
      return r.json.finalized_date ? true : undefined;
    });
    const late = await h.call('admin', 'DELETE', `/api/cm/onboarding/${id}`);
    expect(late.status).toBe(409);
    expect(late.json.message).toBe(M.finalized);
    expect(await counts(id)).toEqual({ files: 1, records: 1 });
  });
});
