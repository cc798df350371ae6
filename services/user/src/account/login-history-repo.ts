import type { Queryable } from '@portal/core';

export interface LoginAttempt {
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
