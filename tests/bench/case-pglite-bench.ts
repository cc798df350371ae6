/**
 * Seed time of the default scale on embedded PGlite (the `npm start` default):
 * migrations plus 3,000 cases per tenant into a fresh data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { migrate, openPglite } from '@portal/core';
import { caseMigrations, seedCases } from '../../services/case/src/index';

it('case seed on PGlite (default scale)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'case-pglite-'));
  const db = await openPglite(dir);
  try {
    const t0 = performance.now();
    await migrate(db, caseMigrations);
    const t1 = performance.now();
    await seedCases(db, { cases: 3000 });
    const t2 = performance.now();
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from cases.cases');
    console.log(
      `PGlite: migrations ${((t1 - t0) / 1000).toFixed(1)} s, seed of ${rows[0]!.n} cases ${((t2 - t1) / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
