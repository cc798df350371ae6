import { DEMO_TENANTS } from '@portal/contracts';
import type { Db } from '@portal/core';

/** Shared categories of every tenant; 'Event Tickets' and 'Travel' add their field groups on page 2. */
const SHARED_CATEGORIES = ['Apparel', 'Electronics', 'Software', 'Subscriptions', 'Event Tickets', 'Travel'];

/** Demo products per merchant: name (the part before the colon is the short name), type, category. */
const PRODUCTS: ReadonlyArray<[string, 1 | 2 | 4, string]> = [
  ['Trail Running Shoes: men, size 9-12', 1, 'Apparel'],
  ['Wireless Headphones: noise cancelling', 1, 'Electronics'],
  ['Photo Editor Pro: annual licence', 2, 'Software'],
  ['Premium Membership: monthly plan', 4, 'Subscriptions'],
  ['Concert Ticket: general admission', 4, 'Event Tickets'],
  ['City Break: flight and hotel', 4, 'Travel'],
];

/**
 * Deterministic demo data of the builder service: per tenant the shared
 * categories, and per merchant of the case data one own category and the
 * demo products (the merchants are read from the case service's table, read
 * only, after its seed ran).
 */
export async function seedBuilder(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const tenant of DEMO_TENANTS) {
      for (const name of SHARED_CATEGORIES)
        await tx.query(
          `insert into builder.categories (tenant_id, merchant_id, name) values ($1, null, $2)`,
          [tenant.id, name],
        );
      const { rows } = await tx.query<{ id: string; business_name: string }>(
        `select id, business_name from cases.merchants where tenant_id = $1 order by id`,
        [tenant.id],
      );
      const merchants = rows.map((r) => Number(r.id));
      // The merchant's own category: its house brand.
      await tx.query(
        `insert into builder.categories (tenant_id, merchant_id, name)
         select $1, m, 'House Brand' from unnest($2::bigint[]) m`,
        [tenant.id, merchants],
      );
      for (const [name, type, category] of PRODUCTS) {
        await tx.query(
          `insert into builder.products (tenant_id, merchant_id, mid_id, name, description, type_id, category_id, created_by)
           select $1, m, null, $2, $3, $4, (select id from builder.categories where tenant_id = $1 and merchant_id is null and name = $5), 'seed'
             from unnest($6::bigint[]) m`,
          [tenant.id, name, `${name} (demo product)`, type, category, merchants],
        );
      }
    }
  });
}
