import { SAML_MESSAGES, type SamlTenantConfig } from '@portal/contracts';
import { forbidden, type Queryable } from '@portal/core';
import { findUserById, findUserByUsername, USER_STATUS, type UserRow } from '../../users/repository';
import type { VerifiedAssertion } from './provider';

/**
 * The portal user an assertion names, within the tenant: by username (the
 * NameID) or by email (the NameID, else the email attribute), as the tenant's
 * `match_by` says. Only federated users sign in this way: a password account
 * of the same name is never taken over by an IdP. An unknown user is created
 * (federated, no password) only when the tenant's `jit` allows it.
 */
async function findByEmail(db: Queryable, tenant: string, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `select id::int as id from users.users where tenant = $1 and lower(email) = lower($2) and status_id <> $3
      order by is_federated desc, id limit 2`,
    [tenant, email, USER_STATUS.DELETED],
  );
  // Two accounts with one email: which one is meant is unclear, so none is.
  if (rows.length !== 1) return undefined;
  return findUserById(db, tenant, rows[0]!.id);
}

export async function federatedUser(
  db: Queryable,
  tenant: string,
  config: SamlTenantConfig,
  a: VerifiedAssertion,
): Promise<{ user: UserRow; created: boolean }> {
  const byEmail = config.match_by === 'email';
  const key = byEmail ? (a.nameId.includes('@') ? a.nameId : a.email) : a.nameId;
  let user = key
    ? await (byEmail ? findByEmail(db, tenant, key) : findUserByUsername(db, tenant, key))
    : undefined;
  let created = false;
  if (!user) {
    if (!config.jit || !key) throw forbidden(SAML_MESSAGES.noUser);
    const role = await db.query<{ id: number }>(`select id from users.roles where name = $1`, [
      config.jit.role,
    ]);
    if (!role.rows[0]) throw forbidden(SAML_MESSAGES.noUser);
    const { rows } = await db.query<{ id: number }>(
      `insert into users.users (tenant, username, email, fname, lname, role_id, merchant_id, is_federated)
       values ($1, $2, $3, $4, $5, $6, $7, true)
       on conflict do nothing returning id::int as id`,
      [
        tenant,
        key.slice(0, 128),
        (a.email ?? (key.includes('@') ? key : '')).slice(0, 256),
        a.firstName ?? '',
        a.lastName ?? '',
        role.rows[0].id,
        config.jit.merchant_id,
      ],
    );
    // A concurrent first sign-in of the same person made it: use that one.
    if (rows[0]) {
      await db.query(
        `insert into users.user_groups (user_id, group_id) values ($1, 0) on conflict do nothing`,
        [rows[0].id],
      );
      created = true;
    }
    user = rows[0]
      ? await findUserById(db, tenant, rows[0].id)
      : await findUserByUsername(db, tenant, key.slice(0, 128));
    if (!user) throw forbidden(SAML_MESSAGES.noUser);
  }
  if (!user.is_federated) throw forbidden(SAML_MESSAGES.notFederated);
  if (user.status_id !== USER_STATUS.ACTIVE) throw forbidden(SAML_MESSAGES.inactive);
  return { user, created };
}
