import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, UPDATER_OUTCOMES as O } from '@portal/contracts';
import { createLogger } from '@portal/core';
import { JobWorker } from '@portal/jobs';
import { newObjectKey, type ObjectStore } from '@portal/storage';
import { UPDATER_JOBS } from '../../../services/case/src/case-updater/updater-job';
import { caseObjectStore } from '../../../services/case/src/onboarding/csv-file';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp, type Ctx } from '../case/case-app';

/** Case updater (spec 3 §2, §3): per-row outcomes, scope, history rows, whole-file refusals. */
let c: CaseApp;
let worker: JobWorker;
let store: ObjectStore;
const log = createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'updater-test');
const manager = demoCtx('acme', 'manager');
const mAdmin = demoCtx('acme', 'merchant.admin');
const A1 = demoMerchantId(ACME, 'merchantA1');

beforeAll(async () => {
  c = await startCaseApp();
  store = await caseObjectStore(c.t.deps.env, log);
  worker = new JobWorker({
    db: c.t.db,
    env: c.t.deps.env,
    log,
    jobs: UPDATER_JOBS,
    pollingIntervalSeconds: 0.5,
  });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop(1);
  await c?.close();
});

async function put(tenant: string, csv: string | Buffer) {
  const key = newObjectKey(tenant, 'case-updater', 'cases.csv');
  await store.put(tenant, key, csv, { contentType: 'text/csv' });
  return key;
}

async function submit(ctx: Ctx, csv: string | Buffer) {
  const key = await put(ctx.tenant!, csv);
  return c.call('POST', '/cm/cases/updater', ctx, { s3_key: key, size: 1, filename: 'cases.csv' });
}

async function finished(ctx: Ctx, id: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await c.call('GET', '/cm/cases/updater', ctx);
    const row = (
      r.body.data as Array<{ id: number; status_name: string; loc: string | null; message: string | null }>
    ).find((u) => u.id === id);
    if (row && (row.status_name === 'Complete' || row.status_name === 'Failed')) return row;
    if (Date.now() > deadline) throw new Error(`upload ${id} did not finish`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

async function resultRows(id: number) {
  const { rows } = await c.t.db.query<{ result_key: string }>(
    'select result_key from cases.updater_uploads where id = $1',
    [id],
  );
  const stream = await store.read('acme', rows[0]!.result_key);
  let text = '';
  for await (const chunk of stream!) text += String(chunk);
  return text
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(','));
}

const caseOf = async (merchant: number | null, tenant = 'acme') =>
  (
    await c.t.db.query<{ id: string; verdict_id: number }>(
      `select id, verdict_id from cases.cases where tenant_id = $1 ${merchant === null ? '' : 'and merchant_id = $2'} order by id limit 1`,
      merchant === null ? [tenant] : [tenant, merchant],
    )
  ).rows[0]!;

describe('case updater', () => {
  it('applies rows and names each outcome in the result file', async () => {
    const mine = await caseOf(A1);
    const other = (
      await c.t.db.query<{ id: string }>(
        `select id from cases.cases where tenant_id = 'acme' and id <> $1 order by id desc limit 1`,
        [mine.id],
      )
    ).rows[0]!;
    const foreign = await caseOf(null, NORTHBANK.id);
    const target = mine.verdict_id === 4 ? 'Loss' : 'Win';
    const csv = `ID,Verdict\r\n${mine.id},${target}\r\n${foreign.id},Win\r\nabc,Win\r\n${other.id},Maybe\r\n${mine.id},Loss\r\n999999999999,Win\r\n`;
    const r = await submit(manager, csv);
    expect(r.status, r.raw).toBe(200);
    expect(r.body.message).toBe('CSV successfully uploaded.');
    const row = await finished(manager, r.body.id);
    expect(row.status_name).toBe('Complete');
    expect(row.loc).toMatch(/download|http/);
    const rows = await resultRows(r.body.id);
    expect(rows.map((x) => x[3])).toEqual([
      O.updated,
      O.unknownId,
      O.badId,
      O.badVerdict,
      O.duplicate,
      O.unknownId,
    ]);
    const after = await c.t.db.query<{ verdict_id: number }>(
      'select verdict_id from cases.cases where id = $1',
      [mine.id],
    );
    expect(after.rows[0]!.verdict_id).toBe(target === 'Win' ? 4 : 5);
    const hist = await c.t.db.query(
      `select 1 from cases.case_history where case_id = $1 and action like $2`,
      [mine.id, `Case updater upload #${r.body.id}:%`],
    );
    expect(hist.rows).toHaveLength(1);
    // The other tenant's case is untouched.
    expect(
      (
        await c.t.db.query<{ verdict_id: number }>('select verdict_id from cases.cases where id = $1', [
          foreign.id,
        ])
      ).rows[0]!.verdict_id,
    ).toBe(foreign.verdict_id);
  });

  it("reports a case outside the uploader's scope and changes nothing there", async () => {
    const outside = (
      await c.t.db.query<{ id: string; verdict_id: number }>(
        `select id, verdict_id from cases.cases where tenant_id = 'acme' and merchant_id <> $1 and merchant_id not in
         (with recursive t(id) as (select $1::bigint union all select m.id from cases.merchants m join t on m.parent_id = t.id) select id from t)
       order by id limit 1`,
        [mAdmin.merchant_id],
      )
    ).rows[0]!;
    const r = await submit(
      mAdmin,
      `ID,Verdict\n${outside.id},${outside.verdict_id === 4 ? 'Loss' : 'Win'}\n`,
    );
    expect(r.status, r.raw).toBe(200);
    await finished(mAdmin, r.body.id);
    expect((await resultRows(r.body.id)).map((x) => x[3])).toEqual([O.outOfScope]);
    expect(
      (
        await c.t.db.query<{ verdict_id: number }>('select verdict_id from cases.cases where id = $1', [
          outside.id,
        ])
      ).rows[0]!.verdict_id,
    ).toBe(outside.verdict_id);
  });

  it('refuses bad files whole: encoding, columns, emptiness, foreign keys, read-only', async () => {
    const latin1 = Buffer.concat([Buffer.from('ID,Verdict\n1,Gagn'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect((await submit(manager, latin1)).status).toBe(400);
    expect((await submit(manager, 'Case,Outcome\n1,Win\n')).body.message).toMatch(/ID and Verdict/);
    expect((await submit(manager, 'ID,Verdict\n')).status).toBe(400);
    const nbKey = await put('northbank', 'ID,Verdict\n1,Win\n');
    expect(
      (await c.call('POST', '/cm/cases/updater', manager, { s3_key: nbKey, size: 1, filename: 'x.csv' }))
        .status,
    ).toBe(400);
    expect((await submit(demoCtx('acme', 'readonly'), 'ID,Verdict\n1,Win\n')).status).toBe(403);
  });

  it('serves the template with ID and Verdict', async () => {
    const r = await c.call('GET', '/cm/cases/updater/template', manager);
    expect(r.raw).toBe('ID,Verdict\r\n1000000001,Win\r\n1000000002,Loss\r\n1000000003,Pending\r\n');
  });
});
