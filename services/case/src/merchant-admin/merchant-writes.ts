import { ROOT_MERCHANT_READONLY, type MerchantCreateBody } from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import { subtreeIds, type Scope } from '../scope/scope';
import { assertMerchantInScope, inScope } from './access';
import { nextDeflectors } from './deflectors';
import { validateMerchant, type MerchantColumns } from './merchant-validate';

async function merchantParent(db: Queryable, tenant: string, id: number) {
  const { rows } = await db.query<{ id: number; parent_id: number | null }>(
    `select id, parent_id from cases.merchants where tenant_id = $1 and id = $2 for update`,
    [tenant, id],
  );
  return rows[0]
    ? { id: Number(rows[0].id), parent_id: rows[0].parent_id === null ? null : Number(rows[0].parent_id) }
    : null;
}

async function checkParent(db: Queryable, scope: Scope, parentId: number): Promise<void> {
  const { rows } = await db.query(`select 1 from cases.merchants where tenant_id = $1 and id = $2`, [
    scope.tenant,
    parentId,
  ]);
  assertMerchantInScope(scope, parentId, 'parent_id', rows.length > 0);
}

async function writeDeflectors(db: Queryable, tenant: string, merchantId: number, next: Map<number, number>) {
  await db.query(`delete from cases.merchant_deflectors where tenant_id = $1 and merchant_id = $2`, [
    tenant,
    merchantId,
  ]);
  for (const [id, status] of next)
    await db.query(
      `insert into cases.merchant_deflectors (tenant_id, merchant_id, deflector_id, status_id) values ($1, $2, $3, $4)`,
      [tenant, merchantId, id, status],
    );
}

/** Creates a merchant under parent_id (default: the caller's own merchant); one transaction. */
export async function createMerchant(
  db: Db,
  scope: Scope,
  body: MerchantCreateBody,
  callerMerchantId: number | null,
): Promise<number> {
  const cols = await validateMerchant(db, body, true);
  if (cols.service_level_id === undefined) cols.service_level_id = 1;
  const parentId = body.parent_id ?? callerMerchantId;
  if (parentId === null || parentId === undefined) throw badRequest('parent_id: Field required!');
  return db.transaction(async (tx) => {
    await checkParent(tx, scope, parentId);
    const deflectors = await nextDeflectors(tx, new Map(), body.deflectors ?? [], false);
    const entries = Object.entries(cols) as [keyof MerchantColumns, unknown][];
    const names = ['tenant_id', 'parent_id', ...entries.map(([k]) => k)];
    const values = [scope.tenant, parentId, ...entries.map(([, v]) => v)];
    const { rows } = await tx.query<{ id: number }>(
      `insert into cases.merchants (id, ${names.join(', ')})
       values (nextval('cases.merchant_id_seq'), ${values.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
      values,
    );
    const id = Number(rows[0]!.id);
    await writeDeflectors(tx, scope.tenant, id, deflectors);
    return id;
  });
}

/**
 * Edits a merchant of the caller's subtree (PATCH: given fields; PUT: all
 * required fields). The root merchant cannot be edited; a new parent must be
 * in scope and outside the merchant's own subtree.
 */
export async function updateMerchant(
  db: Db,
  scope: Scope,
  id: number,
  body: MerchantCreateBody,
  full: boolean,
): Promise<void> {
  const cols = await validateMerchant(db, body, full);
  await db.transaction(async (tx) => {
    const current = await merchantParent(tx, scope.tenant, id);
    if (!current || !inScope(scope, id)) throw notFound('Merchant not found.');
    if (current.parent_id === null) throw badRequest(ROOT_MERCHANT_READONLY);
    const entries = Object.entries(cols) as [string, unknown][];
    if (body.parent_id !== undefined && body.parent_id !== current.parent_id) {
      await checkParent(tx, scope, body.parent_id);
      if ((await subtreeIds(tx, scope.tenant, id)).includes(body.parent_id))
        throw badRequest('parent_id: a merchant cannot move under itself or its own children.');
      // A scoped user may not move their own top merchant (its parent is outside their subtree).
      if (!inScope(scope, current.parent_id)) throw badRequest('parent_id: this merchant cannot be moved.');
      entries.push(['parent_id', body.parent_id]);
    }
    if (entries.length) {
      const sets = entries.map(([k], i) => `${k} = $${i + 3}`).join(', ');
      await tx.query(`update cases.merchants set ${sets} where tenant_id = $1 and id = $2`, [
        scope.tenant,
        id,
        ...entries.map(([, v]) => v),
      ]);
    }
    if (body.deflectors !== undefined) {
      const { rows } = await tx.query<{ deflector_id: number; status_id: number }>(
        `select deflector_id, status_id from cases.merchant_deflectors where tenant_id = $1 and merchant_id = $2`,
        [scope.tenant, id],
      );
      const current = new Map(rows.map((r) => [Number(r.deflector_id), Number(r.status_id)]));
      await writeDeflectors(tx, scope.tenant, id, await nextDeflectors(tx, current, body.deflectors, true));
    }
  });
}
