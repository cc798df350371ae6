import { DEMO_TENANTS } from '@portal/contracts';
import type { Db } from '@portal/core';

export interface SeedOptions {
  /** Cases per tenant. */
  cases: number;
}

/** Deterministic demo data of the case service (design §6). */
export async function seedCases(db: Db, _options: SeedOptions): Promise<void> {
  await db.transaction(async (tx) => {
    for (const tenant of DEMO_TENANTS) {
      await tx.query(`insert into cases.tenants (id, name) values ($1, $2) on conflict (id) do nothing`, [
        tenant.id,
        tenant.name,
      ]);
    }
  });
}
