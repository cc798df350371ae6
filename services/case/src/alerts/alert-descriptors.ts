import type {
  AlertDescriptorQuery,
  DescriptorMapping,
  DescriptorMappingBody,
  DescriptorMappingQuery,
  InternalContext,
  Pagination,
} from '@portal/contracts';
import { badRequest, conflict, notFound, type Db, type Queryable } from '@portal/core';
import type { Scope } from '../scope/scope';
import { alertScope, alertScopeConditions, assertAlertsWritable } from './alert-scope';
import { assertSelfService } from './alert-writes';

/** Conditions of a scope on alert_descriptors (alias ad). */
const descriptorConditions = (scope: Scope, params: unknown[]) => alertScopeConditions(scope, params, 'ad');

interface MappingSql {
  id: string | number;
  merchant_id: string | number;
  descriptor: string;
  mid: string | null;
  mid_id: string | number | null;
}
const toMapping = (r: MappingSql): DescriptorMapping => ({
  id: Number(r.id),
  merchant_id: Number(r.merchant_id),
  descriptor: r.descriptor,
  mid: r.mid,
  mid_id: r.mid_id === null ? null : Number(r.mid_id),
});
const MAPPING_SELECT = `select ad.id, ad.merchant_id, ad.descriptor, mi.mid, ad.mid_id
  from cases.alert_descriptors ad left join cases.mids mi on mi.id = ad.mid_id`;

async function pageOf<T>(
  db: Queryable,
  select: string,
  conditions: string[],
  params: unknown[],
  order: string,
  start: number,
  limit: number,
  map: (r: MappingSql) => T,
): Promise<{ data: T[]; pagination: Pagination }> {
  const where = conditions.join(' and ');
  const all = [...params, limit, start];
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(
      `select count(*)::int as n from cases.alert_descriptors ad where ${where}`,
      params,
    ),
    limit === 0
      ? Promise.resolve({ rows: [] as MappingSql[] })
      : db.query<MappingSql>(
          `${select} where ${where} order by ${order} limit $${all.length - 1} offset $${all.length}`,
          all,
        ),
  ]);
  return { data: rows.rows.map(map), pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}

/** GET /cm/svc/alerts/descriptors/mapping: the merchant's alert descriptors and the MID each maps to (or none). */
export async function listMappings(db: Queryable, ctx: InternalContext, q: DescriptorMappingQuery) {
  const scope = await alertScope(db, ctx, q);
  const params: unknown[] = [];
  const conditions = descriptorConditions(scope, params);
  if (q.descriptor?.trim()) {
    params.push(q.descriptor.trim());
    conditions.push(`lower(ad.descriptor) = lower($${params.length})`);
  }
  if (q.unmapped === 1) conditions.push('ad.mid_id is null');
  return pageOf(
    db,
    MAPPING_SELECT,
    conditions,
    params,
    'ad.descriptor, ad.id',
    q.start ?? 0,
    q.limit ?? 999,
    toMapping,
  );
}

/** GET /cm/svc/descriptors: the descriptor type-ahead (prefix, case-insensitive). */
export async function searchDescriptors(db: Queryable, ctx: InternalContext, q: AlertDescriptorQuery) {
  const scope = await alertScope(db, ctx, q);
  const params: unknown[] = [];
  const conditions = descriptorConditions(scope, params);
  if (q.search?.trim()) {
    params.push(q.search.trim().toLowerCase());
    conditions.push(`lower(ad.descriptor) like $${params.length} || '%'`);
  }
  return pageOf(
    db,
    'select ad.id, ad.merchant_id, ad.descriptor, null as mid, ad.mid_id from cases.alert_descriptors ad',
    conditions,
    params,
    'ad.descriptor, ad.id',
    q.start ?? 0,
    q.limit ?? 10,
    (r) => ({ id: Number(r.id), descriptor: r.descriptor }),
  );
}

/**
 * POST /cm/svc/alerts/descriptors/mapping (Select MID): maps a descriptor
 * that has no MID yet to one of its merchant's MIDs; every alert of the
 * descriptor shows the MID from then on.
 */
export async function setMapping(
  db: Db,
  ctx: InternalContext,
  merchantId: number | undefined,
  body: DescriptorMappingBody,
): Promise<{ mapping: DescriptorMapping; alerts: number }> {
  assertAlertsWritable(ctx);
  const scope = await alertScope(db, ctx, { merchant_id: merchantId, client_id: body.client_id });
  return db.transaction(async (tx) => {
    const params: unknown[] = [];
    const conditions = descriptorConditions(scope, params);
    params.push(body.descriptor.trim());
    const { rows } = await tx.query<MappingSql & { level: number }>(
      `select ad.id, ad.merchant_id, ad.descriptor, mi.mid, ad.mid_id, m.alerts_service_level_id as level
       from cases.alert_descriptors ad join cases.merchants m on m.id = ad.merchant_id
       left join cases.mids mi on mi.id = ad.mid_id
       where ${conditions.join(' and ')} and ad.descriptor = $${params.length}
       order by ad.id limit 1 for update of ad`,
      params,
    );
    const found = rows[0];
    if (!found) throw notFound(`Descriptor '${body.descriptor}' not found.`);
    assertSelfService(Number(found.level));
    if (found.mid_id !== null)
      throw conflict(`Descriptor '${found.descriptor}' is already mapped to MID ${found.mid}.`);
    const mid = await tx.query<{ mid: string }>(
      `select mid from cases.mids where tenant_id = $1 and id = $2 and merchant_id = $3`,
      [ctx.tenant, body.mid_id, found.merchant_id],
    );
    if (!mid.rows[0]) throw badRequest(`mid_id: MID ${body.mid_id} is not a MID of this merchant.`);
    await tx.query(
      `update cases.alert_descriptors set mid_id = $2, mapped_by = $3, mapped_username = $4, mapped_at = now() where id = $1`,
      [found.id, body.mid_id, ctx.user_id, ctx.username],
    );
    // One history row per alert of the descriptor, so each alert's history tells who chose the MID.
    const { rowCount } = await tx.query(
      `insert into cases.alert_history (tenant_id, alert_id, user_id, username, actor_id, old_outcome_id, new_outcome_id, action)
       select tenant_id, id, $2, $3, $4, outcome_id, outcome_id, $5 from cases.alerts where descriptor_id = $1`,
      [found.id, ctx.user_id, ctx.username ?? 'system', ctx.actor_id, `MID ${mid.rows[0].mid} selected`],
    );
    return {
      mapping: toMapping({ ...found, mid: mid.rows[0].mid, mid_id: body.mid_id }),
      alerts: rowCount ?? 0,
    };
  });
}
