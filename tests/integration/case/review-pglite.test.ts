import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildServiceApp,
  createLogger,
  loadEnv,
  MemoryCache,
  migrate,
  openPglite,
  type Db,
} from '@portal/core';
import { migrateJobs } from '@portal/jobs';
import { JOBS } from '@portal/runner';
import { caseMigrations, caseService, seedCases } from '../../../services/case/src/index';
import { contextHeaders } from '../../support/context';
import { demoCtx } from './case-app';

/** Migration 004 and the SQL of the review calls on PGlite (the embedded default). */
let db: Db;
let app: Awaited<ReturnType<typeof buildServiceApp>>;
const secret = 'pglite-review-secret-pglite-review-secret';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'case-review-pglite-'));
  db = await openPglite(join(dir, 'db'));
  await migrate(db, caseMigrations);
  // QC approval enqueues the representment transport job (issue 12) and a domain event (issue 19):
  // every queue of the portal exists, as after `npm run migrate`.
  await migrateJobs(db, JOBS);
  await seedCases(db, { cases: 300 });
  const env = loadEnv(['case'], { DATA_DIR: dir, LOG_LEVEL: 'error' });
  app = await buildServiceApp(caseService, {
    env,
    db,
    cache: new MemoryCache(),
    contextSecret: secret,
    log: createLogger(env, 'test'),
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const call = async (method: 'GET' | 'PATCH' | 'POST', url: string, body?: object) => {
  const r = await app.inject({
    method,
    url,
    headers: contextHeaders(secret, demoCtx('acme', 'manager')),
    ...(body ? { payload: body } : {}),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

it('runs QC next/approve, review with a note and Add ERT on PGlite', async () => {
  const { rows } = await db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 2`,
  );
  const [a, b] = rows.map((r) => Number(r.id));
  await db.query(`update cases.cases set status_id = 3 where id = $1`, [a]);
  expect((await call('GET', '/cm/cases/qc?limit=5')).status).toBe(200);
  const next = await call('GET', '/cm/cases/qc/next');
  expect(next.status).toBe(200);
  expect(next.body.mark.username).toBe('manager');
  const approve = await call('PATCH', '/cm/cases/qc', { id: next.body.id, action_id: 1 });
  expect(approve.status).toBe(200);
  const review = await call('PATCH', '/cm/review', { cases: [{ id: b, action_id: 1, note: 'ok' }] });
  expect(review.status).toBe(200);
  // The seed may have given the case ERTs already (issue 28.4): the new one adds one.
  const erts = async () => (await call('GET', `/ert/case/${b}/erts`)).body.pagination.total as number;
  const before = await erts();
  const ert = await call('POST', `/ert/case/${b}/erts`, { content: 'ERT' });
  expect(ert.status).toBe(200);
  expect(await erts()).toBe(before + 1);
  expect((await call('PATCH', '/cm/cases/patch', { ids: String(b), status: 1, type: 'review' })).status).toBe(
    200,
  );
});
