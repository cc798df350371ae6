import type { MidDetail, MidHistory, MidHistoryQuery } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { Scope } from '../scope/scope';

/** MIDs the scope may see: merchant subtree, then the user's allow and exclude lists. */
export function midVisible(scope: Scope, merchantId: number, midId: number): boolean {
  if (scope.merchantIds !== null && !scope.merchantIds.includes(merchantId)) return false;
  if (scope.midsAllowed !== null && !scope.midsAllowed.includes(midId)) return false;
  return !scope.midsExcluded.includes(midId);
}

interface MidRow {
  id: number;
  mid: string;
  alias: string | null;
  merchant_id: number;
  merchant_name: string;
  descriptor: string | null;
  processor_id: number | null;
  processor_name: string | null;
  mcc: string | null;
  caid: string | null;
  service_level_id: number;
  service_level_name: string;
  wpg_merchant_code: string | null;
  date_created: string;
  status_id: number;
  mid_type_id: number;
  inherit_merchant_deflectors: boolean;
}

export async function findMid(
  db: Queryable,
  scope: Scope,
  id: number,
  lock = false,
): Promise<MidDetail | null> {
  // Locked on its own first (lockCases in case-writes.ts says why).
  if (lock)
    await db.query('select 1 from cases.mids where tenant_id = $1 and id = $2 for update', [
      scope.tenant,
      id,
    ]);
  const { rows } = await db.query<MidRow>(
    `select mi.id, mi.mid, mi.alias, mi.merchant_id, m.business_name as merchant_name,
       (select d.descriptor from cases.descriptors d where d.mid_id = mi.id order by d.id limit 1) as descriptor,
       mi.processor_id, p.name as processor_name, mi.mcc, mi.caid, mi.service_level_id, sl.name as service_level_name,
       mi.wpg_merchant_code, to_char(mi.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created,
       mi.status_id, mi.mid_type_id, mi.inherit_merchant_deflectors
     from cases.mids mi
     join cases.merchants m on m.id = mi.merchant_id
     join cases.service_levels sl on sl.id = mi.service_level_id
     left join cases.processors p on p.id = mi.processor_id
     where mi.tenant_id = $1 and mi.id = $2`,
    [scope.tenant, id],
  );
  const r = rows[0];
  if (!r || !midVisible(scope, Number(r.merchant_id), Number(r.id))) return null;
  const { rows: defl } = await db.query<{ id: number; name: string; alias: string; status_id: number }>(
    `select f.id, f.name, f.alias, md.status_id from cases.mid_deflectors md join cases.deflectors f on f.id = md.deflector_id
     where md.tenant_id = $1 and md.mid_id = $2 order by f.id`,
    [scope.tenant, id],
  );
  return {
    id: Number(r.id),
    mid: r.mid,
    alias: r.alias,
    merchant_id: Number(r.merchant_id),
    merchant_name: r.merchant_name,
    descriptor: r.descriptor === null ? null : { descriptor: r.descriptor },
    processor: r.processor_id === null ? null : { id: r.processor_id, name: r.processor_name ?? '' },
    mcc: r.mcc,
    caid: r.caid,
    service_level: { id: r.service_level_id, name: r.service_level_name },
    wpg_merchant_code: r.wpg_merchant_code,
    date_created: r.date_created,
    status: { id: r.status_id },
    mid_type_id: r.mid_type_id,
    deflectors: defl.map((d) => ({ id: d.id, name: d.name, alias: d.alias, status: { id: d.status_id } })),
    inherit_merchant_deflectors: r.inherit_merchant_deflectors,
  };
}

export async function midHistory(
  db: Queryable,
  tenant: string,
  midId: number,
  q: MidHistoryQuery,
): Promise<MidHistory> {
  const start = q.start ?? 0;
  const limit = q.limit ?? 5;
  const [rows, count] = await Promise.all([
    db.query<{
      id: number;
      username: string;
      date_created: string;
      field: string;
      old_value: string | null;
      new_value: string | null;
    }>(
      `select id, username, to_char(date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date_created,
         field, old_value, new_value
       from cases.mid_history where tenant_id = $1 and mid_id = $2 order by date_created desc, id desc limit $3 offset $4`,
      [tenant, midId, limit, start],
    ),
    db.query<{ n: number }>(
      `select count(*)::int as n from cases.mid_history where tenant_id = $1 and mid_id = $2`,
      [tenant, midId],
    ),
  ]);
  return {
    data: rows.rows.map((r) => ({ ...r, id: Number(r.id) })),
    pagination: { start, limit, total: Number(count.rows[0]?.n ?? 0) },
  };
}
