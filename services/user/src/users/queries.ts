import type { UserItem } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { USER_STATUS_NAMES } from './repository';

/** Users grid queries: filters, search, sorting and paging in SQL (design §5). */
export interface UserFilter {
  tenant: string;
  /** null = whole tenant. */
  merchantIds: number[] | null;
  /** Only this user (merchant_user sees themself). */
  onlyUserId?: number;
  roleId?: number;
  statusId?: number;
  search?: string;
}

const SORTS: Record<string, string> = {
  id: 'u.id',
  username: 'lower(u.username)',
  fname: 'lower(u.fname)',
  lname: 'lower(u.lname)',
  name: "lower(u.fname || ' ' || u.lname)",
  email: 'lower(u.email)',
  role: 'u.role_id',
  status: 'u.status_id',
  merchant: 'u.merchant_id',
  date_created: 'u.created_at',
};

function where(f: UserFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.tenant];
  const parts = ['u.tenant = $1'];
  if (f.merchantIds) {
    params.push(f.merchantIds);
    parts.push(`u.merchant_id = any($${params.length}::bigint[])`);
  }
  if (f.onlyUserId !== undefined) {
    params.push(f.onlyUserId);
    parts.push(`u.id = $${params.length}`);
  }
  if (f.roleId !== undefined) {
    params.push(f.roleId);
    parts.push(`u.role_id = $${params.length}`);
  }
  if (f.statusId !== undefined) {
    params.push(f.statusId);
    parts.push(`u.status_id = $${params.length}`);
  }
  if (f.search?.trim()) {
    params.push(
      `%${f.search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, '\\$&')}%`,
    );
    // username, first and last name and email, lowered (a stored column with a trigram index, migration 012).
    parts.push(`u.search_lc like $${params.length}`);
  }
  return { sql: parts.join(' and '), params };
}

export interface UserItemRow {
  id: number;
  fname: string;
  lname: string;
  username: string;
  email: string;
  role_id: number;
  role_name: string;
  role_label: string;
  merchant_id: number;
  status_id: number;
  is_read_only: boolean;
  is_federated: boolean;
  theme_variant: number;
  tenant: string;
  created_at: string | Date;
  groups: number[];
  mids_allowed: string[];
  mids_excluded: string[];
}

const SELECT_ITEM = `
  select u.id, u.fname, u.lname, u.username, u.email, u.role_id, r.name as role_name, r.label as role_label, u.merchant_id,
         u.status_id, u.is_read_only, u.is_federated, u.theme_variant, u.tenant, u.created_at,
         coalesce((select array_agg(g.group_id order by g.group_id) from users.user_groups g where g.user_id = u.id), '{}') as groups,
         coalesce((select array_agg(m.mid order by m.mid) from users.user_mids m where m.user_id = u.id and not m.is_excluded), '{}') as mids_allowed,
         coalesce((select array_agg(m.mid order by m.mid) from users.user_mids m where m.user_id = u.id and m.is_excluded), '{}') as mids_excluded
    from users.users u join users.roles r on r.id = u.role_id`;

export async function countUsers(db: Queryable, f: UserFilter): Promise<number> {
  const w = where(f);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from users.users u where ${w.sql}`,
    w.params,
  );
  return rows[0]?.n ?? 0;
}

/** The list's query with its filters and sort but no paging (exports stream it through a cursor). */
export function userRowsSql(
  f: UserFilter,
  sort: { sortBy?: string; sortOrder?: 'asc' | 'desc' },
): { sql: string; params: unknown[] } {
  const w = where(f);
  const by = SORTS[sort.sortBy ?? ''] ?? 'u.id';
  const dir = sort.sortOrder === 'desc' ? 'desc' : 'asc';
  return { sql: `${SELECT_ITEM} where ${w.sql} order by ${by} ${dir}, u.id ${dir}`, params: w.params };
}

export async function listUserRows(
  db: Queryable,
  f: UserFilter,
  page: { start: number; limit: number; sortBy?: string; sortOrder?: 'asc' | 'desc' },
): Promise<UserItemRow[]> {
  const w = where(f);
  const sort = SORTS[page.sortBy ?? ''] ?? 'u.id';
  const dir = page.sortOrder === 'desc' ? 'desc' : 'asc';
  const params = [...w.params, page.limit, page.start];
  // The page's ids first: Postgres projects every row an OFFSET skips, so the per-row
  // subqueries of SELECT_ITEM run only for the page this way (a deep page of 100,000 users).
  const ids = `select u.id from users.users u where ${w.sql} order by ${sort} ${dir}, u.id ${dir}
                limit $${params.length - 1} offset $${params.length}`;
  const { rows } = await db.query<UserItemRow>(
    `${SELECT_ITEM} join (${ids}) p on p.id = u.id order by ${sort} ${dir}, u.id ${dir}`,
    params,
  );
  return rows;
}

export async function userItemRow(
  db: Queryable,
  tenant: string,
  id: number,
): Promise<UserItemRow | undefined> {
  const { rows } = await db.query<UserItemRow>(`${SELECT_ITEM} where u.tenant = $1 and u.id = $2`, [
    tenant,
    id,
  ]);
  return rows[0];
}

export function toUserItem(row: UserItemRow, businessName: string | null): UserItem {
  return {
    id: row.id,
    fname: row.fname,
    lname: row.lname,
    username: row.username,
    email: row.email,
    role: { id: row.role_id, name: row.role_label, alias: row.role_name },
    groups: row.groups.map(Number),
    merchant: { id: row.merchant_id, business_name: businessName },
    status: { id: row.status_id, name: USER_STATUS_NAMES[row.status_id] ?? 'UNKNOWN' },
    mids_allowed: row.mids_allowed,
    mids_excluded: row.mids_excluded,
    is_read_only: row.is_read_only,
    is_federated: row.is_federated,
    theme_variant: row.theme_variant,
    tenant: row.tenant,
    date_created: new Date(row.created_at).toISOString(),
  };
}

/** Merchant ids of users in the tenant (candidates for a subtree filter). */
export async function userMerchantIds(db: Queryable, tenant: string): Promise<number[]> {
  const { rows } = await db.query<{ merchant_id: number }>(
    `select distinct merchant_id from users.users where tenant = $1`,
    [tenant],
  );
  return rows.map((r) => Number(r.merchant_id));
}
