import type { FastifyInstance } from 'fastify';
import { CASE_BUILDER_ROLE, isGrantableTo, roleById, type UserProfile } from '@portal/contracts';
import { unauthorized, type Queryable } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { findUserById, USER_STATUS } from '../users/repository';
import { getMerchant } from './merchants';

export interface Permissions {
  features: { id: number; alias: string }[];
  resources: { id: number; alias: string; url: string | null }[];
  allow_resources: string[];
  deny_resources: string[];
}

/**
 * Features of the role; resources of the role plus the user's allows, minus
 * the user's denies. An allow outside the role's grantable list (e.g. a
 * staff-only resource on a merchant user, issue 20 item 4) counts for nothing.
 */
export async function permissionsOf(db: Queryable, userId: number, roleId: number): Promise<Permissions> {
  const role = roleById(roleId) ?? '';
  const features = await db.query<{ id: number; alias: string }>(
    `select f.id, f.alias from users.role_features rf join users.features f on f.id = rf.feature_id where rf.role_id = $1 order by f.id`,
    [roleId],
  );
  const resources = await db.query<{ id: number; alias: string; url: string | null; by_role: boolean }>(
    `select r.id, r.alias, r.url, r.id in (select resource_id from users.role_resources where role_id = $2) as by_role
       from users.resources r
      where (r.id in (select resource_id from users.role_resources where role_id = $2)
             or r.id in (select resource_id from users.user_resources where user_id = $1 and is_allowed))
        and r.id not in (select resource_id from users.user_resources where user_id = $1 and not is_allowed)
      order by r.id`,
    [userId, roleId],
  );
  const overrides = await db.query<{ alias: string; is_allowed: boolean }>(
    `select r.alias, ur.is_allowed from users.user_resources ur join users.resources r on r.id = ur.resource_id where ur.user_id = $1 order by r.id`,
    [userId],
  );
  return {
    features: features.rows,
    resources: resources.rows
      .filter((r) => r.by_role || isGrantableTo(role, r.alias))
      .map(({ id, alias, url }) => ({ id, alias, url })),
    allow_resources: overrides.rows
      .filter((o) => o.is_allowed && isGrantableTo(role, o.alias))
      .map((o) => o.alias),
    deny_resources: overrides.rows.filter((o) => !o.is_allowed).map((o) => o.alias),
  };
}

export async function midsOf(
  db: Queryable,
  userId: number,
): Promise<{ allowed: string[]; excluded: string[] }> {
  const { rows } = await db.query<{ mid: string; is_excluded: boolean }>(
    `select mid, is_excluded from users.user_mids where user_id = $1 order by mid`,
    [userId],
  );
  return {
    allowed: rows.filter((r) => !r.is_excluded).map((r) => r.mid),
    excluded: rows.filter((r) => r.is_excluded).map((r) => r.mid),
  };
}

/**
 * The signed-in user (spec 1 §3.1) the gateway caches and builds every
 * internal context from. Only active users have a profile.
 */
export async function buildProfile(
  app: FastifyInstance,
  state: UserServiceState,
  tenant: string,
  userId: number,
  actorId: number | null,
  requestId: string,
): Promise<UserProfile> {
  const { db } = app.deps;
  const user = await findUserById(db, tenant, userId);
  if (!user || user.status_id !== USER_STATUS.ACTIVE) throw unauthorized('Unauthenticated');
  const [permissions, mids, merchant] = await Promise.all([
    permissionsOf(db, user.id, user.role_id),
    midsOf(db, user.id),
    getMerchant(state, tenant, user.merchant_id, requestId),
  ]);
  let impersonatedBy: UserProfile['impersonated_by'] = null;
  if (actorId !== null && actorId !== user.id) {
    const actor = await findUserById(db, tenant, actorId);
    if (!actor) throw unauthorized('Unauthenticated');
    impersonatedBy = { id: actor.id, fname: actor.fname, lname: actor.lname };
  }
  const midsTotal = merchant.mids_count ?? 0;
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    fname: user.fname,
    lname: user.lname,
    role: user.role_name,
    // The case-builder role (spec 2 §6) rides on the role list the internal context carries.
    roles: permissions.resources.some((r) => r.alias === CASE_BUILDER_ROLE)
      ? [user.role_name, CASE_BUILDER_ROLE]
      : [user.role_name],
    status: user.status_id,
    is_federated: user.is_federated,
    is_read_only: user.is_read_only,
    merchant: {
      id: user.merchant_id,
      business_name: merchant.business_name,
      show_alerts_banner: merchant.show_alerts_banner ?? false,
    },
    ...permissions,
    mids_allowed: mids.allowed,
    mids_excluded: mids.excluded,
    // An allow-list bounds the MIDs; otherwise the merchant's MIDs minus the excluded ones.
    mids_count: mids.allowed.length ? mids.allowed.length : Math.max(0, midsTotal - mids.excluded.length),
    theme_variant: user.theme_variant,
    must_update_password: user.must_update_password,
    impersonated_by: impersonatedBy,
    session_version: user.session_version,
  };
}
