import {
  CASE_BUILDER_ROLE,
  DEMO_MERCHANTS,
  DEMO_PASSWORD,
  DEMO_TENANTS,
  DEMO_USERS,
  FEATURE_ALIASES,
  ROLES,
  demoMerchantId,
  demoUserId,
  type RoleName,
} from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import { hashPassword } from '../auth/passwords';
import { demoSsoAudience, demoSsoIssuer } from '../auth/sso';
import { seedDemoMessages } from '../messages/demo-messages';
import {
  ALL_RESOURCES,
  featureId,
  NOTIFICATION_TYPES,
  RESOURCE_INFO,
  resourceId,
  ROLE_FEATURES,
  ROLE_RESOURCES,
  ROLE_ROWS,
} from './matrix';

/**
 * Reference data every deployment needs (roles, features, resources, the
 * role matrix, notification types): idempotent, run by the seed and at
 * service start so that SEED_SCALE=none still has roles.
 */
export async function syncCatalogue(db: Queryable): Promise<void> {
  for (const r of ROLE_ROWS) {
    await db.query(
      `insert into users.roles (id, name, label) values ($1, $2, $3) on conflict (id) do update set name = $2, label = $3`,
      [r.id, r.name, r.label],
    );
  }
  for (const alias of FEATURE_ALIASES) {
    await db.query(
      `insert into users.features (id, alias, name) values ($1, $2, $3) on conflict (id) do update set alias = $2, name = $3`,
      [featureId(alias), alias, alias.replace(/[-_]/g, ' ')],
    );
  }
  for (const alias of ALL_RESOURCES) {
    const info = RESOURCE_INFO[alias];
    await db.query(
      `insert into users.resources (id, alias, name, url) values ($1, $2, $3, $4) on conflict (id) do update set alias = $2, name = $3, url = $4`,
      [resourceId(alias), alias, info.name, info.url],
    );
  }
  for (const [role, features] of Object.entries(ROLE_FEATURES) as [
    RoleName,
    readonly (typeof FEATURE_ALIASES)[number][],
  ][]) {
    await db.query(
      `insert into users.role_features (role_id, feature_id) select $1, unnest($2::int[]) on conflict do nothing`,
      [ROLES[role], features.map(featureId)],
    );
  }
  for (const [role, resources] of Object.entries(ROLE_RESOURCES) as [
    RoleName,
    readonly (typeof ALL_RESOURCES)[number][],
  ][]) {
    await db.query(
      `insert into users.role_resources (role_id, resource_id) select $1, unnest($2::int[]) on conflict do nothing`,
      [ROLES[role], resources.map(resourceId)],
    );
  }
  await db.query(`insert into users.groups (id, name) values (0, 'Default') on conflict (id) do nothing`);
  for (const n of NOTIFICATION_TYPES) {
    await db.query(
      `insert into users.notification_types (id, name, alias) values ($1, $2, $3) on conflict (id) do update set name = $2, alias = $3`,
      [n.id, n.name, n.alias],
    );
  }
}

/** Demo users holding the case-builder role (spec 2 §6, issue 13). */
const CASE_BUILDER_HOLDERS: Record<string, readonly string[]> = {
  acme: ['manager', 'agent', 'merchant.admin'],
};

/**
 * Demo users of design §6 in both demo tenants (ids from contracts/demo.ts),
 * one demo identity provider per tenant (its key pair is generated into
 * DATA_DIR at service start, see auth/sso.ts) and a welcome message.
 * DEMO_PASSWORD is hashed once and shared so seeding stays fast.
 */
export async function seedUser(db: Db): Promise<void> {
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await syncCatalogue(tx);
    for (const tenant of DEMO_TENANTS) {
      for (const u of DEMO_USERS) {
        const merchant = DEMO_MERCHANTS.find((m) => m.key === u.merchant)!;
        const id = demoUserId(tenant, u);
        const federated = u.kind === 'federated';
        await tx.query(
          `insert into users.users (id, tenant, username, email, fname, lname, role_id, merchant_id, status_id, is_federated,
                                    is_read_only, theme_variant, password_hash, password_changed_at, new_password_required,
                                    must_update_password, must_update_password_since)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11, $12, now() - interval '1 day', $13, $14,
                   case when $14 then now() end)`,
          [
            id,
            tenant.id,
            u.username,
            `${u.username}@${merchant.allowed_domains[0]}`,
            u.fname,
            u.lname,
            ROLES[u.role],
            demoMerchantId(tenant, u.merchant),
            federated,
            u.kind === 'read_only',
            u.theme_variant?.[tenant.id] ?? 1,
            federated ? null : hash,
            u.kind === 'new_password',
            u.kind === 'force_reset',
          ],
        );
        await tx.query(`insert into users.user_groups (user_id, group_id) values ($1, 0)`, [id]);
        if (CASE_BUILDER_HOLDERS[tenant.id]?.includes(u.username))
          await tx.query(
            `insert into users.user_resources (user_id, resource_id, is_allowed) values ($1, $2, true)`,
            [id, resourceId(CASE_BUILDER_ROLE)],
          );
      }
      await tx.query(
        `insert into users.identity_providers (tenant, name, issuer, audience, algorithm, is_demo) values ($1, $2, $3, $4, 'EdDSA', true)`,
        [tenant.id, `${tenant.name} demo SSO`, demoSsoIssuer(tenant.id), demoSsoAudience(tenant.id)],
      );
      await seedDemoMessages(tx, tenant);
    }
  });
}
