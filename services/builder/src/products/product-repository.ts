import { TRANSACTION_TYPES, type Product, type ProductCategory } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { containsPattern } from '@portal/core';

/** Products and categories of a merchant (migrations/001: builder.products, builder.categories). */

const typeName = (id: number) => TRANSACTION_TYPES.find((t) => t.id === id)?.name ?? String(id);

interface ProductRow {
  id: string;
  name: string;
  description: string | null;
  type_id: number;
  category_id: string;
  category_name: string;
}
const toProduct = (r: ProductRow): Product => ({
  id: Number(r.id),
  name: r.name,
  description: r.description,
  type: { id: r.type_id, name: typeName(r.type_id) },
  category: { id: Number(r.category_id), name: r.category_name },
});

const PRODUCT_SELECT = `select p.id, p.name, p.description, p.type_id, p.category_id, c.name as category_name
  from builder.products p join builder.categories c on c.id = p.category_id`;

/** Products a MID sells: the merchant's products for every MID or for this one. */
export async function listProducts(
  db: Queryable,
  q: { tenant: string; merchantId: number; midId: number; search?: string; limit: number },
): Promise<Product[]> {
  const params: unknown[] = [q.tenant, q.merchantId, q.midId, q.limit];
  let where = '';
  if (q.search?.trim()) {
    params.push(containsPattern(q.search));
    where = ` and p.name ilike $5`;
  }
  const { rows } = await db.query<ProductRow>(
    `${PRODUCT_SELECT}
     where p.tenant_id = $1 and p.merchant_id = $2 and (p.mid_id is null or p.mid_id = $3)${where}
     order by lower(p.name), p.id limit $4`,
    params,
  );
  return rows.map(toProduct);
}

export async function productFor(
  db: Queryable,
  q: { tenant: string; merchantId: number; midId: number; id: number },
): Promise<(Product & { type_id: number }) | null> {
  const { rows } = await db.query<ProductRow>(
    `${PRODUCT_SELECT}
     where p.tenant_id = $1 and p.merchant_id = $2 and (p.mid_id is null or p.mid_id = $3) and p.id = $4`,
    [q.tenant, q.merchantId, q.midId, q.id],
  );
  return rows[0] ? { ...toProduct(rows[0]), type_id: rows[0].type_id } : null;
}

export async function insertProduct(
  tx: Queryable,
  p: {
    tenant: string;
    merchantId: number;
    midId: number | null;
    name: string;
    description: string | null;
    typeId: number;
    categoryId: number;
    createdBy: string | null;
  },
): Promise<number> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into builder.products (tenant_id, merchant_id, mid_id, name, description, type_id, category_id, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [p.tenant, p.merchantId, p.midId, p.name, p.description, p.typeId, p.categoryId, p.createdBy],
  );
  return Number(rows[0]!.id);
}

/** Categories offered to a merchant: the tenant's shared ones plus the merchant's own. */
export async function listCategories(
  db: Queryable,
  q: { tenant: string; merchantId: number | null; search?: string; limit: number },
): Promise<ProductCategory[]> {
  const params: unknown[] = [q.tenant, q.merchantId, q.limit];
  let where = '';
  if (q.search?.trim()) {
    params.push(containsPattern(q.search));
    where = ` and name ilike $4`;
  }
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from builder.categories
      where tenant_id = $1 and (merchant_id is null or merchant_id = $2)${where}
      order by merchant_id nulls first, lower(name) limit $3`,
    params,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export async function categoryFor(
  db: Queryable,
  tenant: string,
  merchantId: number,
  id: number,
): Promise<ProductCategory | null> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from builder.categories where tenant_id = $1 and (merchant_id is null or merchant_id = $2) and id = $3`,
    [tenant, merchantId, id],
  );
  return rows[0] ? { id: Number(rows[0].id), name: rows[0].name } : null;
}
