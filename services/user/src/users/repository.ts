import type { Queryable } from '@portal/core';

/** A user row as the service reads it (never sent as is: it holds the password hash). */
export interface UserRow {
  id: number;
  tenant: string;
  username: string;
  email: string;
  fname: string;
  lname: string;
  role_id: number;
  role_name: string;
  role_label: string;
  merchant_id: number;
  status_id: number;
  is_federated: boolean;
  is_read_only: boolean;
  theme_variant: number;
  password_hash: string | null;
  password_changed_at: string | null;
  new_password_required: boolean;
  must_update_password: boolean;
  must_update_password_since: string | null;
  session_version: number;
  created_at: string;
}

export const USER_STATUS = {
  ACTIVE: 1,
  DELETED: 2,
  DISABLED: 3,
  EXPIRED: 4,
  PASSWORD: 5,
  LOCKED_OUT: 6,
} as const;
export const USER_STATUS_NAMES: Record<number, string> = {
  1: 'ACTIVE',
  2: 'DELETED',
  3: 'DISABLED',
  4: 'EXPIRED',
  5: 'PASSWORD',
  6: 'LOCKED_OUT',
};

const SELECT_USER = `
  select u.id, u.tenant, u.username, u.email, u.fname, u.lname, u.role_id, r.name as role_name, r.label as role_label,
         u.merchant_id, u.status_id, u.is_federated, u.is_read_only, u.theme_variant, u.password_hash,
         u.password_changed_at, u.new_password_required, u.must_update_password, u.must_update_password_since,
         u.session_version, u.created_at
    from users.users u join users.roles r on r.id = u.role_id`;

export async function findUserByUsername(
  db: Queryable,
  tenant: string,
  username: string,
): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `${SELECT_USER} where u.tenant = $1 and lower(u.username) = lower($2)`,
    [tenant, username],
  );
  return rows[0];
}

export async function findUserById(db: Queryable, tenant: string, id: number): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`${SELECT_USER} where u.tenant = $1 and u.id = $2`, [tenant, id]);
  return rows[0];
}

export async function setPassword(
  db: Queryable,
  userId: number,
  hash: string,
  flags: { clearNewPasswordRequired?: boolean; clearMustUpdate?: boolean } = {},
): Promise<void> {
  await db.query(
    `update users.users set password_hash = $2, password_changed_at = clock_timestamp(), updated_at = now(),
            new_password_required = case when $3 then false else new_password_required end,
            must_update_password = case when $4 then false else must_update_password end
      where id = $1`,
    [userId, hash, flags.clearNewPasswordRequired ?? false, flags.clearMustUpdate ?? false],
  );
}
