import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import {
  buildServiceApp,
  createLogger,
  loadEnv,
  MemoryCache,
  migrate,
  openPglite,
  type Db,
} from '@portal/core';
import { JobWorker, migrateJobs } from '@portal/jobs';
import { JOBS } from '@portal/runner';
import { newObjectKey } from '@portal/storage';
import {
  caseMigrations,
  caseService,
  ONBOARDING_JOBS,
  seedCases,
  UPDATER_JOBS,
} from '../../../services/case/src/index';
import { caseObjectStore } from '../../../services/case/src/onboarding/csv-file';
import { contextHeaders } from '../../support/context';
import { demoCtx } from '../case/case-app';

/** Migration 016 and the SQL of onboarding, the case updater and ERT records on PGlite (the embedded default). */
let db: Db;
let app: Awaited<ReturnType<typeof buildServiceApp>>;
let worker: JobWorker;
let env: ReturnType<typeof loadEnv>;
const secret = 'pglite-onboarding-secret-pglite-onboarding';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'case-onboarding-pglite-'));
  db = await openPglite(join(dir, 'db'));
  await migrate(db, caseMigrations);
  // Every queue of the portal, as after `npm run migrate`: the updater and ERT writes also emit events.
  await migrateJobs(db, JOBS);
  await seedCases(db, { cases: 300 });
  env = loadEnv(['case'], { DATA_DIR: dir, LOG_LEVEL: 'error' });
  const log = createLogger(env, 'test');
  app = await buildServiceApp(caseService, { env, db, cache: new MemoryCache(), contextSecret: secret, log });
  worker = new JobWorker({
    db,
    env,
    log,
    jobs: [...ONBOARDING_JOBS, ...UPDATER_JOBS],
    pollingIntervalSeconds: 0.5,
  });
  await worker.start();
}, 120_000);
afterAll(async () => {
  await worker?.stop(1);
  await app?.close();
  await db?.close();
});

const call = async (method: 'GET' | 'PATCH' | 'POST', url: string, body?: object) => {
  const r = await app.inject({
    method,
    url,
    headers: contextHeaders(secret, demoCtx('acme', 'admin')),
    ...(body ? { payload: body } : {}),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};
const put = async (area: string, csv: string) => {
  const store = await caseObjectStore(env, createLogger(env, 'test'));
  const key = newObjectKey('acme', area, 'f.csv');
  await store.put('acme', key, csv, { contentType: 'text/csv' });
  return key;
};
const until = async (probe: () => Promise<boolean>) => {
  const deadline = Date.now() + 30_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
};

it('onboards MIDs, runs the case updater and lists, creates and resolves ERTs on PGlite', async () => {
  const A1 = demoMerchantId(demoTenant('acme'), 'merchantA1');
  const created = await call('POST', '/cm/onboarding', {
    s3_key: await put('onboarding', 'MID,Alias\nPGL0001,One\nPGL0001,Dup\n'),
    type: 'mid',
    merchant_id: A1,
  });
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  const rec = await call('GET', `/cm/onboarding/${id}/records`);
  expect(rec.body.total_failing_validation).toBe(2);
  const patch = await call('PATCH', `/cm/onboarding/${id}/records`, {
    records: [{ id: rec.body.data[1].id, status_id: 2 }],
  });
  expect(patch.body.total_failing_validation).toBe(0);
  // The seed's own files are listed too (issue 28.4): the new one is among them, still open.
  const files = (await call('GET', '/cm/onboarding/files')).body.data as Array<{
    id: number;
    status_id: number;
  }>;
  expect(files.find((f) => f.id === id)).toMatchObject({ status_id: 1 });
  expect((await call('PATCH', `/cm/onboarding/${id}`, { status_id: 3 })).status).toBe(200);
  await until(async () => !!(await call('GET', `/cm/onboarding/${id}/records`)).body.finalized_date);
  expect((await db.query(`select 1 from cases.mids where mid = 'PGL0001'`)).rows).toHaveLength(1);

  const c = (
    await db.query<{ id: string }>(`select id from cases.cases where tenant_id = 'acme' order by id limit 1`)
  ).rows[0]!;
  const up = await call('POST', '/cm/cases/updater', {
    s3_key: await put('case-updater', `ID,Verdict\n${c.id},Win\n`),
    size: 1,
    filename: 'f.csv',
  });
  expect(up.status).toBe(200);
  await until(async () => (await call('GET', '/cm/cases/updater')).body.data[0].status_name === 'Complete');

  const bulk = await call('POST', '/ert/erts/upload', {
    s3_key: await put('ert', `Case ID,Content\n${c.id},pglite\n`),
  });
  expect(bulk.status).toBe(200);
  const list = await call('GET', '/ert/erts?search=pglite&sort_by=merchant&sort_order=asc');
  expect(list.body.pagination.total).toBe(1);
  expect((await call('POST', `/ert/erts/${bulk.body.ids[0]}/resolve`, {})).body.data.status).toBe('Resolved');
}, 60_000);
