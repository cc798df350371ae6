import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openPglite, type Db } from '@portal/core';
import { caseMigrations, seedCases } from '../../../services/case/src/index';
import { docsMigrations, PgDocumentStore, seedDocs } from '../../../services/docs/src/index';

/**
 * The docs migration, the demo seed and the bytea store on PGlite (the embedded default of npm start). The
 * seed on PGlite is CPU-bound: 118 s at a load of 16 on a shared machine, so the hook has 300 s.
 */
let db: Db;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-pglite-'));
  db = await openPglite(join(dir, 'db'));
  await migrate(db, caseMigrations);
  await migrate(db, docsMigrations);
  await seedCases(db, { cases: 300 });
  await seedDocs(db);
}, 300_000);
afterAll(async () => {
  await db?.close();
});

it('seeds representments with stored PDFs and reads the bytes back', async () => {
  const { rows } = await db.query<{ tenant_id: string; file_key: string; size: number }>(
    `select tenant_id, file_key, size from docs.representments where not is_archived order by id limit 1`,
  );
  expect(rows).toHaveLength(1);
  const store = new PgDocumentStore(db);
  const file = await store.get(rows[0]!.tenant_id, rows[0]!.file_key);
  expect(file).not.toBeNull();
  expect(file!.content.length).toBe(Number(rows[0]!.size));
  expect(file!.content.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
  expect(file!.contentType).toBe('application/pdf');
  // Another tenant's key is not found.
  const other = rows[0]!.tenant_id === 'acme' ? 'northbank' : 'acme';
  expect(await store.get(other, rows[0]!.file_key)).toBeNull();
});
