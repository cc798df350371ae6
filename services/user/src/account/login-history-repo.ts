import type { Queryable } from '@portal/core';

interface LoginAttempt {
  tenant: string;
  userId: number | null;
  username: string;
  ip: string;
  success: boolean;
  method: 'password' | 'sso' | 'challenge';
  reason?: string | null;
  userAgent?: string | null;
}

/** Every sign-in attempt on a known or unknown username, with its IP (login history, spec 3 §2). */
export async function recordLogin(db: Queryable, a: LoginAttempt): Promise<void> {
  await db.query(
    `insert into users.login_history (tenant, user_id, username, ip, success, method, reason, user_agent)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      a.tenant,
      a.userId,
      a.username.slice(0, 128),
      a.ip,
      a.success,
      a.method,
      a.reason ?? null,
      a.userAgent ?? null,
    ],
  );
}

/** Tenant-wide block (user_id null) of an IP. */
export async function isIpBlockedForTenant(db: Queryable, tenant: string, ip: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from users.blocked_ips where tenant = $1 and user_id is null and ip = $2`,
    [tenant, ip],
  );
  return rows.length > 0;
}

/** Block of an IP for one account (a user locking an IP from their login history). */
export async function isIpBlockedForUser(
  db: Queryable,
  tenant: string,
  userId: number,
  ip: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from users.blocked_ips where tenant = $1 and user_id = $2 and ip = $3`,
    [tenant, userId, ip],
  );
  return rows.length > 0;
}

/** One row of a user's login history as GET /users/users/{id}/login-history answers it. */
interface LoginHistoryItem {
  id: number;
  ip: string;
  timestamp: string;
  is_blocked: boolean;
  blocked_id: number | null;
  success: boolean;
}

/** A page of a user's sign-in attempts, newest first; `unique`: the latest attempt per IP. */
export async function loginHistoryPage(
  db: Queryable,
  tenant: string,
  userId: number,
  page: { unique?: boolean; limit: number; start: number },
): Promise<{ total: number; data: LoginHistoryItem[] }> {
  const source = page.unique
    ? `(select distinct on (ip) * from users.login_history where user_id = $1 order by ip, created_at desc, id desc)`
    : `users.login_history`;
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from ${source} h where h.user_id = $1`,
    [userId],
  );
  const { rows } = await db.query<{
    id: number;
    ip: string;
    created_at: Date | string;
    success: boolean;
    blocked_id: number | null;
  }>(
    `select h.id, h.ip, h.created_at, h.success, b.id as blocked_id
       from ${source} h
       left join users.blocked_ips b on b.tenant = $2 and b.user_id = h.user_id and b.ip = h.ip
      where h.user_id = $1
      order by h.created_at desc, h.id desc limit $3 offset $4`,
    [userId, tenant, page.limit, page.start],
  );
  return {
    total: count.rows[0]?.n ?? 0,
    data: rows.map((r) => ({
      id: r.id,
      ip: r.ip,
      timestamp: new Date(r.created_at).toISOString(),
      is_blocked: r.blocked_id !== null,
      blocked_id: r.blocked_id,
      success: r.success,
    })),
  };
}

/** Blocks sign-ins to one account from an IP (again: the same block); its id. */
export async function blockIp(
  db: Queryable,
  b: { tenant: string; userId: number; ip: string; createdBy: number | null },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into users.blocked_ips (tenant, user_id, ip, created_by) values ($1, $2, $3, $4)
     on conflict (tenant, coalesce(user_id, 0), ip) do update set ip = excluded.ip returning id`,
    [b.tenant, b.userId, b.ip, b.createdBy],
  );
  return rows[0]!.id;
}

/** A block of the tenant by id: its account (null: tenant-wide) and IP. */
export async function findBlockedIp(
  db: Queryable,
  tenant: string,
  id: number,
): Promise<{ user_id: number | null; ip: string } | undefined> {
  const { rows } = await db.query<{ user_id: number | null; ip: string }>(
    `select user_id, ip from users.blocked_ips where tenant = $1 and id = $2`,
    [tenant, id],
  );
  return rows[0];
}

export async function deleteBlockedIp(db: Queryable, id: number): Promise<void> {
  await db.query(`delete from users.blocked_ips where id = $1`, [id]);
}
