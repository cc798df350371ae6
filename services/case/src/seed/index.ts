import { DEMO_TENANTS } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import { seedCaseRows } from './cases';
import { seedMerchants } from './merchants';

export interface SeedOptions {
  /** Cases per tenant. */
  cases: number;
}

/** From this many cases per tenant, indexes are built after the rows are in (a sorted build beats 20 index inserts per row). */
const BULK_THRESHOLD = 20_000;

async function dropCaseIndexes(tx: Queryable): Promise<string[]> {
  const { rows } = await tx.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes
     where schemaname = 'cases' and tablename = 'cases' and indexname <> 'cases_pkey' order by indexname`,
  );
  for (const r of rows) await tx.query(`drop index cases.${r.name}`);
  return rows.map((r) => r.def);
}

/**
 * Deterministic demo data of the case service (design §6): the demo tenants,
 * their merchant hierarchy (demo.ts ids plus generated merchants), MIDs with
 * descriptors and deflectors, the assignable staff and the cases.
 */
export async function seedCases(db: Db, options: SeedOptions): Promise<void> {
  const bulk = options.cases >= BULK_THRESHOLD;
  await db.transaction(async (tx) => {
    const indexes = bulk ? await dropCaseIndexes(tx) : [];
    for (const tenant of DEMO_TENANTS) {
      await tx.query(`insert into cases.tenants (id, name) values ($1, $2) on conflict (id) do nothing`, [tenant.id, tenant.name]);
      await seedMerchants(tx, tenant, options.cases);
      await seedCaseRows(tx, tenant, options.cases);
    }
    if (bulk) {
      await tx.query(`set local maintenance_work_mem = '256MB'`);
      for (const def of indexes) await tx.query(def);
    }
  });
  // Fresh statistics and visibility map: index-only scans from the first query.
  await db.query('vacuum analyze cases.cases');
  await db.query('analyze cases.case_counts');
}
