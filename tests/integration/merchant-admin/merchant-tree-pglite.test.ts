import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoMerchantId, type MerchantTree } from '@portal/contracts';
import {
  buildServiceApp,
  createLogger,
  loadEnv,
  MemoryCache,
  migrate,
  openPglite,
  type Db,
} from '@portal/core';
import { caseMigrations, caseService, seedCases } from '../../../services/case/src/index';
import { contextHeaders } from '../../support/context';
import { ACME, demoCtx } from '../case/case-app';

/**
 * Migration 023 and the lazy tree's SQL on PGlite (the embedded default): its ICU collation, and
 * no pg_trgm there (PGlite loads no contrib extension), so the searches run without trigram indexes.
 */
let db: Db;
let app: Awaited<ReturnType<typeof buildServiceApp>>;
const secret = 'pglite-tree-secret-pglite-tree-secret-0123';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'case-tree-pglite-'));
  db = await openPglite(join(dir, 'db'));
  await migrate(db, caseMigrations);
  // A second run changes nothing (npm start migrates at every start).
  expect(await migrate(db, caseMigrations)).toEqual([]);
  await seedCases(db, { cases: 50 });
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

const get = async (url: string, user = 'admin') => {
  const r = await app.inject({ method: 'GET', url, headers: contextHeaders(secret, demoCtx('acme', user)) });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

it('migrates 023 without pg_trgm and answers the tree page, a node, a search, the tile path and a MID search', async () => {
  const trgm = await db.query(`select 1 from pg_extension where extname = 'pg_trgm'`);
  expect(trgm.rows).toEqual([]);
  const partnerA = demoMerchantId(ACME, 'partnerA');
  const a1 = demoMerchantId(ACME, 'merchantA1');

  const page = await get('/cm/merchants/list?start=0&limit=20&sort_order=asc&sort_by=business_name');
  expect(page.status).toBe(200);
  const tree = page.body as MerchantTree;
  expect(tree.data.length).toBeGreaterThan(0);
  expect(tree.pagination.total).toBe(tree.root.child_count);

  const node = await get(`/cm/merchants/list?parent_id=${partnerA}`, 'partner.admin');
  expect(node.status).toBe(200);
  expect(node.body.data.map((n: { id: number }) => n.id)).toContain(a1);

  const search = await get('/cm/merchants/list?search=blue%20sky');
  expect(search.body.pagination.total).toBe(1);
  expect(search.body.data[0].id).toBe(partnerA);
  expect(search.body.data[0].children[0]).toMatchObject({ id: a1, match: true });

  const tile = await get(`/cm/merchants/list?search_merchant_id=${a1}`);
  expect(tile.body.path).toEqual([demoMerchantId(ACME, 'root'), partnerA, a1]);

  const { rows } = await db.query<{ descriptor: string }>(
    `select d.descriptor from cases.descriptors d join cases.mids m on m.id = d.mid_id
     where m.merchant_id = $1 order by d.id limit 1`,
    [a1],
  );
  const term = rows[0]!.descriptor.slice(0, 6).toLowerCase();
  const mids = await get(`/cm/merchants/${a1}/mids?search=${encodeURIComponent(term)}`);
  expect(mids.status).toBe(200);
  expect(mids.body.pagination.total).toBeGreaterThan(0);
});
