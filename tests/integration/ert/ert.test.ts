import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, ERT_MESSAGES } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { newObjectKey, type ObjectStore } from '@portal/storage';
import { caseObjectStore } from '../../../services/case/src/onboarding/csv-file';
import { ACME, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/** ERT records (spec 3 §2, §7, §9): create with defaults, list, export, resolve one and many, bulk creation. */
let c: CaseApp;
let store: ObjectStore;
const admin = demoCtx('acme', 'admin');
const mAdmin = demoCtx('acme', 'merchant.admin');
const nbAdmin = demoCtx('northbank', 'admin');
const A1 = demoMerchantId(ACME, 'merchantA1');
const tag = `ert-${Date.now().toString(36)}`;

beforeAll(async () => {
  c = await startCaseApp();
  store = await caseObjectStore(
    c.t.deps.env,
    createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'ert-test'),
  );
});
afterAll(async () => c?.close());

async function csvKey(tenant: string, csv: string) {
  const key = newObjectKey(tenant, 'ert', 'erts.csv');
  await store.put(tenant, key, csv, { contentType: 'text/csv' });
  return key;
}
const casesOf = async (merchant: number, n: number) =>
  (
    await c.t.db.query<{ id: string }>(
      'select id from cases.cases where merchant_id = $1 order by id limit $2',
      [merchant, n],
    )
  ).rows.map((r) => Number(r.id));

describe('ERT records', () => {
  let ertId: number;
  it('creates an ERT with the spec defaults and lists it', async () => {
    const [caseId] = await casesOf(A1, 1);
    const r = await c.call('POST', `/ert/case/${caseId}/erts`, admin, { content: `${tag} first` });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data).toMatchObject({
      status_id: 1,
      is_active: true,
      level_id: 1,
      type_id: 7,
      cb_id: caseId,
      created_by: 'admin',
    });
    ertId = r.body.data.id;
    const list = await c.call('GET', `/ert/erts?search=${encodeURIComponent(tag)}`, admin);
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({
      id: ertId,
      status: 'Open',
      level: 'Low',
      resolved_by: null,
      date_resolved: null,
    });
    expect(list.body.pagination.total).toBe(1);
  });

  it('keeps ERTs inside the tenant and merchant scope', async () => {
    expect((await c.call('GET', `/ert/erts?search=${tag}`, nbAdmin)).body.pagination.total).toBe(0);
    expect((await c.call('POST', `/ert/erts/${ertId}/resolve`, nbAdmin, {})).status).toBe(404);
  });

  it('resolves one ERT once, recording who and when', async () => {
    expect((await c.call('POST', `/ert/erts/${ertId}/resolve`, demoCtx('acme', 'readonly'), {})).status).toBe(
      403,
    );
    const r = await c.call('POST', `/ert/erts/${ertId}/resolve`, admin, {});
    expect(r.status, r.raw).toBe(200);
    expect(r.body.message).toBe(ERT_MESSAGES.resolved);
    expect(r.body.data).toMatchObject({
      status: 'Resolved',
      resolved_by: 'admin',
      date_resolved: expect.any(String),
    });
    expect((await c.call('POST', `/ert/erts/${ertId}/resolve`, admin, {})).status).toBe(409);
    const link = await c.call('GET', `/ert/erts/${ertId}/resolve/upload`, admin);
    expect(link.body.fields.key).toMatch(/^acme\/ert\//);
  });

  it('creates ERTs in bulk from a CSV, all or nothing', async () => {
    const ids = await casesOf(A1, 2);
    const bad = await c.call('POST', '/ert/erts/upload', admin, {
      s3_key: await csvKey('acme', `Case ID,Content\n${ids[0]},${tag} bulk\n999999999999,${tag} bulk\n`),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Case\(s\) not found: 999999999999\. Nothing was added\./);
    const before = (await c.call('GET', `/ert/erts?search=${tag}`, admin)).body.pagination.total;
    expect(before).toBe(1);
    const ok = await c.call('POST', '/ert/erts/upload', admin, {
      s3_key: await csvKey(
        'acme',
        `Case ID,Content\n${ids[0]},"${tag} bulk, one"\n${ids[1]},${tag} bulk two\n`,
      ),
    });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body).toMatchObject({ count: 2, message: ERT_MESSAGES.created(2) });
    const created = ok.body.ids as number[];

    // Bulk resolve: an unknown id refuses the file; a good file resolves all.
    const refused = await c.call('POST', '/ert/erts/bulk/resolve', admin, {
      s3_key: await csvKey('acme', `ID\n${created[0]}\n${ertId + 10_000_000}\n`),
    });
    expect(refused.status).toBe(400);
    const open = await c.t.db.query(
      'select 1 from cases.erts where id = any($1::bigint[]) and date_resolved is null',
      [created],
    );
    expect(open.rows).toHaveLength(2);
    const done = await c.call('POST', '/ert/erts/bulk/resolve', admin, {
      s3_key: await csvKey('acme', `ID\n${created[0]}\n${created[1]}\n${ertId}\n`),
    });
    expect(done.status, done.raw).toBe(200);
    expect(done.body).toMatchObject({ count: 2, message: ERT_MESSAGES.bulkResolved(2) });
  });

  it('refuses cases outside a merchant user scope and exports CSV', async () => {
    const outside = (
      await c.t.db.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' and merchant_id not in
         (with recursive t(id) as (select $1::bigint union all select m.id from cases.merchants m join t on m.parent_id = t.id) select id from t)
       order by id limit 1`,
        [mAdmin.merchant_id],
      )
    ).rows[0]!.id;
    const r = await c.call('POST', '/ert/erts/upload', mAdmin, {
      s3_key: await csvKey('acme', `Case ID,Content\n${outside},x\n`),
    });
    expect(r.status).toBe(400);
    const csv = await c.call('GET', `/ert/erts.csv?search=${tag}`, admin);
    expect(csv.status).toBe(200);
    expect(csv.raw.split('\r\n')[0]).toBe(
      'id,merchant,status,level,content,created_by,resolved_by,date_created,date_approved,date_resolved,date_archived',
    );
    expect(csv.raw.trim().split('\r\n')).toHaveLength(4);
  });

  it('takes a proof file only when its bytes are of the type it was uploaded as (issue 27.D)', async () => {
    const [caseId] = await casesOf(A1, 1);
    const proofTag = `proof-${Date.now().toString(36)}`;
    const created = await c.call('POST', `/ert/case/${caseId}/erts`, admin, { content: proofTag });
    const id = created.body.data.id as number;
    const proof = async (contentType: string, bytes: Buffer | string) => {
      const key = newObjectKey('acme', 'ert', 'proof');
      await store.put('acme', key, bytes, { contentType });
      return key;
    };
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (const [declared, bytes] of [
      ['image/jpeg', pdf],
      ['application/pdf', png],
      ['text/csv', png],
      ['image/png', Buffer.from('Case ID,Content\n1,x\n')],
    ] as const) {
      const r = await c.call('POST', `/ert/erts/${id}/resolve`, admin, {
        s3_key: await proof(declared, bytes),
      });
      expect(r.status, declared).toBe(400);
      expect(r.body.message).toBe(ERT_MESSAGES.proofTypeMismatch);
    }
    expect((await c.call('GET', `/ert/erts?search=${proofTag}`, admin)).body.data[0]).toMatchObject({
      status: 'Open',
    });
    const ok = await c.call('POST', `/ert/erts/${id}/resolve`, admin, {
      s3_key: await proof('application/pdf', pdf),
    });
    expect(ok.status, ok.raw).toBe(200);
  });
});
