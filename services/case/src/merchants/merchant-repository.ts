import {
  MERCHANT_FEATURE_NAMES,
  type AssigneeBody,
  type Merchant,
  type MerchantList,
  type MerchantListQuery,
  type MerchantName,
  type Mid,
} from '@portal/contracts';
import { containsPattern, type Queryable } from '@portal/core';
import { scopeConditions, subtreeIds, type Scope } from '../scope/scope';

interface MerchantDbRow {
  id: number;
  business_name: string;
  alias: string | null;
  parent_id: number | null;
  partner_company_id: string | null;
  status_id: number;
  status_name: string;
  date_created: string;
  business_address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  business_phone: string | null;
  contact_username: string | null;
  contact_fname: string | null;
  contact_lname: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  direct_api: boolean;
  features: number[];
  service_level_id: number;
  service_level_name: string;
  show_alerts_banner: boolean;
  allowed_domains: string[];
}

/**
 * How much of a merchant a scope may read: all of its subtree; of the
 * ancestors of its root only the name (the panel shows the parent's name;
 * contact details, domains and MID counts above one's own subtree are not
 * the caller's business: issue 20 item 8).
 */
async function merchantVisibility(
  db: Queryable,
  scope: Scope,
  id: number,
  userMerchantId: number | null,
): Promise<'full' | 'name' | null> {
  if (scope.merchantIds === null) return 'full';
  if (scope.merchantIds.includes(id)) return 'full';
  if (userMerchantId === null) return null;
  const { rows } = await db.query<{ id: number }>(
    `with recursive up(id, parent_id) as (
       select id, parent_id from cases.merchants where tenant_id = $1 and id = $2
       union all
       select m.id, m.parent_id from cases.merchants m join up on m.id = up.parent_id where m.tenant_id = $1
     ) select id from up where id = $3`,
    [scope.tenant, userMerchantId, id],
  );
  return rows.length > 0 ? 'name' : null;
}

export async function findMerchant(
  db: Queryable,
  scope: Scope,
  id: number,
  userMerchantId: number | null,
): Promise<Merchant | MerchantName | null> {
  const { rows } = await db.query<MerchantDbRow>(
    `select m.id, m.business_name, m.alias, m.parent_id, m.partner_company_id, m.status_id, ms.name as status_name,
       to_char(m.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created, m.business_address, m.city,
       m.state, m.zip, co.name as country, m.business_phone, m.contact_username, m.contact_fname, m.contact_lname,
       m.contact_phone, m.contact_email, m.direct_api, m.service_level_id, sl.name as service_level_name,
       m.show_alerts_banner, m.allowed_domains,
       array(select f.feature_id::int from cases.merchant_features f where f.merchant_id = m.id order by 1) as features
     from cases.merchants m
     join cases.merchant_statuses ms on ms.id = m.status_id
     join cases.service_levels sl on sl.id = m.service_level_id
     left join cases.countries co on co.id = m.country_id
     where m.tenant_id = $1 and m.id = $2`,
    [scope.tenant, id],
  );
  const m = rows[0];
  if (!m) return null;
  const visibility = await merchantVisibility(db, scope, id, userMerchantId);
  if (visibility === null) return null;
  if (visibility === 'name') return { id: Number(m.id), business_name: m.business_name };
  const subtree = await subtreeIds(db, scope.tenant, id);
  const [mids, deflectors] = await Promise.all([
    db.query<{ n: number }>(
      `select count(*)::int as n from cases.mids where tenant_id = $1 and merchant_id = any($2::bigint[])`,
      [scope.tenant, subtree],
    ),
    // A merchant's deflector status is the best of its own switch (issue 15) and any of its MIDs; none counts as inactive.
    db.query<{ id: number; name: string; alias: string; status_id: number }>(
      `select f.id, f.name, f.alias,
         greatest(coalesce(max(md.status_id), 1),
           coalesce((select own.status_id from cases.merchant_deflectors own
                     where own.tenant_id = $1 and own.merchant_id = $2 and own.deflector_id = f.id), 1))::int as status_id
       from cases.deflectors f
       left join cases.mid_deflectors md on md.deflector_id = f.id
         and md.mid_id in (select id from cases.mids where tenant_id = $1 and merchant_id = $2)
       group by f.id, f.name, f.alias order by f.id`,
      [scope.tenant, id],
    ),
  ]);
  return {
    id: Number(m.id),
    business_name: m.business_name,
    alias: m.alias,
    parent_id: m.parent_id === null ? null : Number(m.parent_id),
    partner_company_id: m.partner_company_id,
    status: { id: m.status_id, name: m.status_name },
    date_created: m.date_created,
    business_address: m.business_address,
    city: m.city,
    state: m.state,
    zip: m.zip,
    country: m.country,
    business_phone: m.business_phone,
    contact: {
      username: m.contact_username,
      fname: m.contact_fname,
      lname: m.contact_lname,
      phone_number: m.contact_phone,
      email: m.contact_email,
    },
    direct_api: m.direct_api,
    service_level: { id: m.service_level_id, name: m.service_level_name },
    service_level_id: m.service_level_id,
    deflectors: deflectors.rows.map((d) => ({
      id: d.id,
      name: d.name,
      alias: d.alias,
      status: { id: d.status_id },
    })),
    features: m.features.map((id) => ({ id, name: MERCHANT_FEATURE_NAMES[id] ?? String(id) })),
    isRootMerchant: m.parent_id === null,
    show_alerts_banner: m.show_alerts_banner,
    allowed_domains: m.allowed_domains,
    mids_count: Number(mids.rows[0]?.n ?? 0),
  };
}

/** Merchants of a scope (the whole tenant for staff), by name; search matches name or alias anywhere. */
export async function listMerchants(
  db: Queryable,
  scope: Scope,
  q: MerchantListQuery,
): Promise<MerchantList> {
  const params: unknown[] = [scope.tenant];
  const conditions = ['m.tenant_id = $1'];
  if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    conditions.push(`m.id = any($${params.length}::bigint[])`);
  }
  if (q.status_id !== undefined) {
    params.push(q.status_id);
    conditions.push(`m.status_id = $${params.length}`);
  }
  if (q.search?.trim()) {
    params.push(containsPattern(q.search));
    conditions.push(`(m.business_name ilike $${params.length} or m.alias ilike $${params.length})`);
  }
  const limit = q.limit ?? 50;
  const start = q.start ?? 0;
  const where = conditions.join(' and ');
  const [rows, count] = await Promise.all([
    db.query<{
      id: number;
      business_name: string;
      alias: string | null;
      parent_id: number | null;
      status_id: number;
    }>(
      `select m.id, m.business_name, m.alias, m.parent_id, m.status_id from cases.merchants m where ${where}
       order by m.business_name, m.id limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from cases.merchants m where ${where}`, params),
  ]);
  return {
    data: rows.rows.map((r) => ({
      ...r,
      id: Number(r.id),
      parent_id: r.parent_id === null ? null : Number(r.parent_id),
    })),
    pagination: { total: Number(count.rows[0]?.n ?? 0), limit, start },
  };
}

export async function listMids(
  db: Queryable,
  scope: Scope,
  q: { status_id?: number; search?: string; start?: number; limit?: number },
): Promise<{ data: Mid[]; pagination: { total: number; limit: number; start: number } }> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'mi', params).map((c) => c.replace('mi.mid_id', 'mi.id'));
  if (q.status_id !== undefined) {
    params.push(q.status_id);
    conditions.push(`mi.status_id = $${params.length}`);
  }
  if (q.search?.trim()) {
    params.push(containsPattern(q.search));
    conditions.push(
      `(mi.mid ilike $${params.length} or mi.alias ilike $${params.length} or m.business_name ilike $${params.length})`,
    );
  }
  const where = conditions.join(' and ');
  const limit = q.limit ?? 25;
  const start = q.start ?? 0;
  const from = `from cases.mids mi join cases.merchants m on m.id = mi.merchant_id where ${where}`;
  const [rows, count] = await Promise.all([
    db.query<{
      id: number;
      mid: string;
      alias: string | null;
      merchant_id: number;
      merchant_name: string;
      status_id: number;
      descriptors: string[];
    }>(
      `select mi.id, mi.mid, mi.alias, mi.merchant_id, m.business_name as merchant_name, mi.status_id,
         coalesce((select array_agg(d.descriptor order by d.id) from cases.descriptors d where d.mid_id = mi.id), '{}') as descriptors
       ${from} order by mi.mid limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
    db.query<{ n: number }>(`select count(*)::int as n ${from}`, params),
  ]);
  return {
    data: rows.rows.map((r) => ({ ...r, id: Number(r.id), merchant_id: Number(r.merchant_id) })),
    pagination: { total: Number(count.rows[0]?.n ?? 0), limit, start },
  };
}

export async function upsertAssignee(
  db: Queryable,
  tenant: string,
  id: number,
  a: AssigneeBody,
): Promise<void> {
  await db.query(
    `insert into cases.assignees (id, tenant_id, username, fname, lname, role_id, is_active) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (id) do update set username = excluded.username, fname = excluded.fname, lname = excluded.lname,
       role_id = excluded.role_id, is_active = excluded.is_active
     where cases.assignees.tenant_id = excluded.tenant_id`,
    [id, tenant, a.username, a.fname, a.lname, a.role_id, a.is_active],
  );
  // Keep the snapshot on the cases of this assignee current (names shown in the lists).
  await db.query(
    `update cases.cases set assigned_fname = $3, assigned_lname = $4, assigned_username = $5
     where tenant_id = $1 and assigned_user_id = $2 and (assigned_fname, assigned_lname, assigned_username) is distinct from ($3, $4, $5)`,
    [tenant, id, a.fname, a.lname, a.username],
  );
}

/** Feature ids of a merchant of the tenant (none for an unknown id). */
export async function merchantFeatures(
  db: Queryable,
  tenant: string,
  merchantId: number | null,
): Promise<Set<number>> {
  if (merchantId === null) return new Set();
  const { rows } = await db.query<{ feature_id: number }>(
    `select feature_id from cases.merchant_features where tenant_id = $1 and merchant_id = $2`,
    [tenant, merchantId],
  );
  return new Set(rows.map((r) => Number(r.feature_id)));
}
