import { FIELD_REQUIRED, type InternalContext, type MidCreateBody, type MidDetail } from '@portal/contracts';
import { badRequest, conflict, notFound, type Db, type Queryable } from '@portal/core';
import type { Scope } from '../scope/scope';
import { assertMerchantInScope, blank, fieldErrors, trimOrNull } from '../merchant-admin/access';
import { describeDeflectors, nextDeflectors } from '../merchant-admin/deflectors';
import { findMid } from './mid-repository';

/** Checks a MID body with the spec's messages (spec 3 §5 'MID form'); `full` on create. */
export async function validateMid(db: Queryable, body: MidCreateBody, full: boolean): Promise<void> {
  const errors: Record<string, string> = {};
  for (const f of ['mid', 'alias', 'descriptor'] as const)
    if ((full || body[f] !== undefined) && blank(body[f])) errors[f] = FIELD_REQUIRED;
  if ((full || body.service_level_id !== undefined) && body.service_level_id === undefined)
    errors.service_level_id = FIELD_REQUIRED;
  if ((full || body.processor_id !== undefined) && !(body.processor_id! > 0))
    errors.processor_id = FIELD_REQUIRED;
  if (full && body.merchant_id === undefined) errors.merchant_id = FIELD_REQUIRED;
  if (body.status_id !== undefined && body.status_id !== 2 && body.status_id !== 3)
    errors.status_id = 'Status must be 2 (on) or 3 (off).';
  if (!blank(body.mcc) && !/^\d{4}$/.test(body.mcc!.trim())) errors.mcc = 'MCC must be 4 digits.';
  if (body.processor_id !== undefined && body.processor_id > 0) {
    const { rows } = await db.query(`select 1 from cases.processors where id = $1`, [body.processor_id]);
    if (!rows.length) errors.processor_id = `Unknown platform ${body.processor_id}.`;
  }
  if (body.service_level_id !== undefined) {
    const { rows } = await db.query(`select 1 from cases.service_levels where id = $1`, [
      body.service_level_id,
    ]);
    if (!rows.length) errors.service_level_id = FIELD_REQUIRED;
  }
  fieldErrors(errors);
}

async function merchantKnown(db: Queryable, tenant: string, id: number): Promise<boolean> {
  const { rows } = await db.query(`select 1 from cases.merchants where tenant_id = $1 and id = $2`, [
    tenant,
    id,
  ]);
  return rows.length > 0;
}

async function merchantDeflectors(
  db: Queryable,
  tenant: string,
  merchantId: number,
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ deflector_id: number; status_id: number }>(
    `select deflector_id, status_id from cases.merchant_deflectors where tenant_id = $1 and merchant_id = $2`,
    [tenant, merchantId],
  );
  return new Map(rows.map((r) => [Number(r.deflector_id), Number(r.status_id)]));
}

async function writeDeflectors(db: Queryable, tenant: string, midId: number, next: Map<number, number>) {
  await db.query(`delete from cases.mid_deflectors where tenant_id = $1 and mid_id = $2`, [tenant, midId]);
  for (const [id, status] of next)
    await db.query(
      `insert into cases.mid_deflectors (tenant_id, mid_id, deflector_id, status_id) values ($1, $2, $3, $4)`,
      [tenant, midId, id, status],
    );
}

async function assertUniqueMid(db: Queryable, tenant: string, mid: string, exceptId: number | null) {
  const { rows } = await db.query(
    `select 1 from cases.mids where tenant_id = $1 and mid = $2 and id is distinct from $3`,
    [tenant, mid, exceptId],
  );
  if (rows.length) throw conflict(`mid: MID ${mid} already exists.`);
}

/** Creates a MID (status on = 2 by default, service level 1, type 1) with its descriptor and deflectors. */
export async function createMid(db: Db, scope: Scope, body: MidCreateBody): Promise<MidDetail> {
  await validateMid(db, body, true);
  return db.transaction(
    async (tx) => findMid(tx, scope, await insertMid(tx, scope, body)) as Promise<MidDetail>,
  );
}

/** Inserts one validated MID inside the caller's transaction (create and CSV upload); returns its id. */
export async function insertMid(tx: Queryable, scope: Scope, body: MidCreateBody): Promise<number> {
  const merchantId = body.merchant_id!;
  assertMerchantInScope(scope, merchantId, 'merchant_id', await merchantKnown(tx, scope.tenant, merchantId));
  const mid = body.mid!.trim();
  await assertUniqueMid(tx, scope.tenant, mid, null);
  const inherit = body.inherit_merchant_deflectors ?? false;
  // Inheriting copies the merchant's deflectors; the switches are locked, so the body's list is ignored.
  const deflectors = inherit
    ? await merchantDeflectors(tx, scope.tenant, merchantId)
    : await nextDeflectors(tx, new Map(), body.deflectors ?? [], false);
  const { rows } = await tx.query<{ id: number }>(
    `insert into cases.mids (id, tenant_id, merchant_id, mid, alias, processor_id, status_id, mcc, caid, service_level_id,
       wpg_merchant_code, mid_type_id, inherit_merchant_deflectors)
     values (nextval('cases.mid_id_seq'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11) returning id`,
    [
      scope.tenant,
      merchantId,
      mid,
      body.alias!.trim(),
      body.processor_id,
      body.status_id ?? 2,
      trimOrNull(body.mcc),
      trimOrNull(body.caid),
      body.service_level_id ?? 1,
      trimOrNull(body.wpg_merchant_code),
      inherit,
    ],
  );
  const id = Number(rows[0]!.id);
  await tx.query(
    `insert into cases.descriptors (id, tenant_id, mid_id, descriptor) values (nextval('cases.descriptor_id_seq'), $1, $2, $3)`,
    [scope.tenant, id, body.descriptor!.trim()],
  );
  await writeDeflectors(tx, scope.tenant, id, deflectors);
  return id;
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * Edits a MID; every changed field gets a history row (old and new value, user,
 * time) in the same transaction as the change.
 */
export async function updateMid(
  db: Db,
  scope: Scope,
  ctx: InternalContext,
  id: number,
  body: MidCreateBody,
): Promise<MidDetail> {
  await validateMid(db, body, false);
  return db.transaction((tx) => updateMidIn(tx, scope, ctx, id, body));
}

/** A validated edit inside the caller's transaction: row, descriptor, deflectors and one history row per changed field. */
export async function updateMidIn(
  tx: Queryable,
  scope: Scope,
  ctx: InternalContext,
  id: number,
  body: MidCreateBody,
): Promise<MidDetail> {
  const before = await findMid(tx, scope, id, true);
  if (!before) throw notFound('MID not found.');
  const changes: { field: string; column?: string; old: unknown; next: unknown }[] = [];
  const track = (field: string, old: unknown, next: unknown, column?: string) => {
    if (next !== undefined && str(old) !== str(next)) changes.push({ field, column, old, next });
  };
  if (body.mid !== undefined) {
    const mid = body.mid.trim();
    if (mid !== before.mid) await assertUniqueMid(tx, scope.tenant, mid, id);
    track('mid', before.mid, mid, 'mid');
  }
  track('alias', before.alias, body.alias?.trim(), 'alias');
  if (body.merchant_id !== undefined && body.merchant_id !== before.merchant_id) {
    assertMerchantInScope(
      scope,
      body.merchant_id,
      'merchant_id',
      await merchantKnown(tx, scope.tenant, body.merchant_id),
    );
    track('merchant_id', before.merchant_id, body.merchant_id, 'merchant_id');
  }
  track('status_id', before.status.id, body.status_id, 'status_id');
  track('processor_id', before.processor?.id ?? null, body.processor_id, 'processor_id');
  track('service_level_id', before.service_level.id, body.service_level_id, 'service_level_id');
  track('mcc', before.mcc, body.mcc === undefined ? undefined : trimOrNull(body.mcc), 'mcc');
  track('caid', before.caid, body.caid === undefined ? undefined : trimOrNull(body.caid), 'caid');
  track(
    'wpg_merchant_code',
    before.wpg_merchant_code,
    body.wpg_merchant_code === undefined ? undefined : trimOrNull(body.wpg_merchant_code),
    'wpg_merchant_code',
  );
  track(
    'inherit_merchant_deflectors',
    before.inherit_merchant_deflectors,
    body.inherit_merchant_deflectors,
    'inherit_merchant_deflectors',
  );
  track('descriptor', before.descriptor?.descriptor ?? null, body.descriptor?.trim());

  const columns = changes.filter((c) => c.column);
  if (columns.length)
    await tx.query(
      `update cases.mids set ${columns.map((c, i) => `${c.column} = $${i + 3}`).join(', ')} where tenant_id = $1 and id = $2`,
      [scope.tenant, id, ...columns.map((c) => c.next)],
    );
  const descriptor = changes.find((c) => c.field === 'descriptor');
  if (descriptor) {
    const updated = await tx.query(
      `update cases.descriptors set descriptor = $3
         where id = (select id from cases.descriptors where tenant_id = $1 and mid_id = $2 order by id limit 1)`,
      [scope.tenant, id, descriptor.next],
    );
    if (!updated.rowCount)
      await tx.query(
        `insert into cases.descriptors (id, tenant_id, mid_id, descriptor) values (nextval('cases.descriptor_id_seq'), $1, $2, $3)`,
        [scope.tenant, id, descriptor.next],
      );
  }

  const inherit = body.inherit_merchant_deflectors ?? before.inherit_merchant_deflectors;
  if (body.deflectors !== undefined || (inherit && body.inherit_merchant_deflectors === true)) {
    const current = new Map(before.deflectors.map((d) => [d.id, d.status.id]));
    const merchantId = body.merchant_id ?? before.merchant_id;
    const next = inherit
      ? await merchantDeflectors(tx, scope.tenant, merchantId)
      : await nextDeflectors(tx, current, body.deflectors ?? [], true);
    const [was, now] = [describeDeflectors(current), describeDeflectors(next)];
    if (was !== now) {
      await writeDeflectors(tx, scope.tenant, id, next);
      changes.push({ field: 'deflectors', old: was, next: now });
    }
  }
  for (const c of changes)
    await tx.query(
      `insert into cases.mid_history (tenant_id, mid_id, user_id, username, field, old_value, new_value)
         values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        scope.tenant,
        id,
        ctx.actor_id ?? ctx.user_id,
        ctx.username ?? 'system',
        c.field,
        str(c.old),
        str(c.next),
      ],
    );
  if (!changes.length && Object.keys(body).length === 0) throw badRequest('Nothing to update.');
  return (await findMid(tx, scope, id))!;
}
