import type { AuditItem } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { AuditBatchEntry, AuditQuery } from './audit-schemas';

/** What a caller may read: the tenant, and for partner and merchant admins only their subtree's users. */
export interface AuditScope {
  tenant: string;
  /** null: the whole tenant (provider staff). */
  merchantIds: number[] | null;
}

/**
 * Client addresses are for provider staff (issue 27.G): a merchant or partner
 * admin learns nothing from where its users' calls came from that it needs,
 * and would learn the addresses of staff acting in its subtree.
 */
export const showsAddresses = (scope: AuditScope) => scope.merchantIds === null;

/** Stores a gateway batch of one tenant; rows already stored (a retried batch) are skipped. */
export async function insertAuditBatch(
  db: Queryable,
  tenant: string,
  entries: readonly AuditBatchEntry[],
): Promise<number> {
  const { rowCount } = await db.query(
    `insert into users.audit_log
       (tenant, entry_id, actor_id, user_id, action, method, route, target_ids, status, request_id, ip, created_at,
        actor_kind, api_key_id)
     select $1, e.entry_id, e.actor_id, e.user_id, 'request', e.method, e.route, e.target_ids, e.status,
            e.request_id, e.ip, e.at, coalesce(e.actor_kind, 'user'), e.api_key_id
       from jsonb_to_recordset($2::jsonb) as e(entry_id uuid, actor_id bigint, user_id bigint, method text,
            route text, target_ids jsonb, status int, request_id text, ip text, at timestamptz,
            actor_kind text, api_key_id text)
     on conflict (entry_id) where entry_id is not null do nothing`,
    [tenant, JSON.stringify(entries)],
  );
  return rowCount;
}

/** The where clause of a list or an export: scope first, then the filters. */
function auditWhere(scope: AuditScope, q: AuditQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [scope.tenant];
  const add = (value: unknown) => `$${params.push(value)}`;
  const parts = ['a.tenant = $1'];
  if (scope.merchantIds !== null)
    parts.push(
      `a.user_id in (select id from users.users where tenant = $1 and merchant_id = any(${add(scope.merchantIds)}::bigint[]))`,
    );
  if (q.user_id !== undefined) {
    const p = add(q.user_id);
    parts.push(`(a.user_id = ${p} or a.actor_id = ${p})`);
  }
  if (q.method !== undefined) parts.push(`a.method = ${add(q.method)}`);
  if (q.action !== undefined) parts.push(`a.action = ${add(q.action)}`);
  if (q.target !== undefined) {
    const exact = add(q.target);
    const like = add(`%${q.target.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    parts.push(
      `(coalesce(a.route, a.path) ilike ${like}
        or a.target_user_id::text = ${exact}
        or exists (select 1 from jsonb_each_text(coalesce(a.target_ids, '{}'::jsonb)) t where t.value = ${exact}))`,
    );
  }
  if (q.date_range !== undefined) {
    const [from, to] = q.date_range.split('|') as [string, string];
    parts.push(`a.created_at >= ${add(from)}::date and a.created_at < ${add(to)}::date + 1`);
  }
  return { where: parts.join(' and '), params };
}

interface AuditRow {
  id: string;
  created_at: Date;
  actor_id: string | null;
  actor_username: string | null;
  user_id: string | null;
  user_username: string | null;
  action: string;
  method: string | null;
  route: string | null;
  path: string | null;
  target_ids: Record<string, string> | null;
  target_user_id: string | null;
  status: number | null;
  request_id: string | null;
  ip: string | null;
  api_key_id: string | null;
}

function auditSelect(where: string, order: 'asc' | 'desc') {
  return `select a.id, a.created_at, a.actor_id, au.username as actor_username, a.user_id,
                 uu.username as user_username, a.action, a.method, a.route, a.path, a.target_ids,
                 a.target_user_id, coalesce(a.status, case when a.action = 'impersonated_call' and a.detail->>'status' ~ '^[0-9]{3}$'
                   then (a.detail->>'status')::int end) as status, a.request_id, a.ip, a.api_key_id
            from users.audit_log a
            left join users.users au on au.id = a.actor_id
            left join users.users uu on uu.id = a.user_id
           where ${where}
           order by a.created_at ${order}, a.id ${order}`;
}

const person = (id: string | null, username: string | null) =>
  id === null ? null : { id: Number(id), username };

export function toAuditItem(r: AuditRow, withAddress: boolean): AuditItem {
  const targets = { ...(r.target_ids ?? {}) };
  // The service's own rows name their target user in a column of their own.
  if (r.target_user_id !== null && targets.id === undefined) targets.user_id = r.target_user_id;
  return {
    id: Number(r.id),
    time: new Date(r.created_at).toISOString(),
    actor: person(r.actor_id, r.actor_username),
    user: person(r.user_id, r.user_username),
    impersonated: r.actor_id !== null && r.user_id !== null && r.actor_id !== r.user_id,
    api_key_id: r.api_key_id,
    action: r.action,
    method: r.method,
    // Older rows (before routes were recorded) keep their raw path.
    route: r.route ?? r.path,
    target_ids: targets,
    status: r.status,
    request_id: r.request_id,
    ip: withAddress ? r.ip : null,
  };
}

export async function countAudit(db: Queryable, scope: AuditScope, q: AuditQuery): Promise<number> {
  const { where, params } = auditWhere(scope, q);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from users.audit_log a where ${where}`,
    params,
  );
  return rows[0]?.n ?? 0;
}

export async function listAudit(
  db: Queryable,
  scope: AuditScope,
  q: AuditQuery,
  page: { start: number; limit: number },
): Promise<AuditItem[]> {
  const { where, params } = auditWhere(scope, q);
  const { rows } = await db.query<AuditRow>(
    `${auditSelect(where, q.sort_order ?? 'desc')} limit ${page.limit} offset ${page.start}`,
    params,
  );
  return rows.map((r) => toAuditItem(r, showsAddresses(scope)));
}

/** The export's query, read by the caller in batches (a cursor: never the whole log in memory). */
export function auditExportSql(scope: AuditScope, q: AuditQuery) {
  const { where, params } = auditWhere(scope, q);
  return { sql: auditSelect(where, q.sort_order ?? 'desc'), params };
}
export type { AuditRow };
