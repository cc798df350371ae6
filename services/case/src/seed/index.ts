import { DEMO_TENANTS } from '@portal/contracts';
import type { Db } from '@portal/core';
import { seedCaseRows } from './cases';
import { seedMerchants } from './merchants';

export interface SeedOptions {
  /** Cases per tenant. */
  cases: number;
}

/**
 * Deterministic demo data of the case service (design §6): the demo tenants,
 * their merchant hierarchy (demo.ts ids plus generated merchants), MIDs with
 * descriptors and deflectors, the assignable staff and the cases.
 */
export async function seedCases(db: Db, options: SeedOptions): Promise<void> {
  for (const tenant of DEMO_TENANTS) {
    await db.transaction(async (tx) => {
      await tx.query(`insert into cases.tenants (id, name) values ($1, $2) on conflict (id) do nothing`, [tenant.id, tenant.name]);
      await seedMerchants(tx, tenant, options.cases);
      await seedCaseRows(tx, tenant, options.cases);
    });
  }
  // Fresh statistics and visibility map: index-only scans from the first query.
  await db.query('vacuum analyze cases.cases');
  await db.query('analyze cases.case_counts');
}
