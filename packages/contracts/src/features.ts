import { Type, type Static } from '@sinclair/typebox';

/**
 * Feature aliases (spec 1 §6.2) gate menu entries and routes; resources are
 * site permissions (page roles, spec 3 §6) a user is allowed or denied
 * individually. The user service seeds both per role; the gateway's policy
 * and the web app's menu read them from the signed-in user's profile.
 */
export const FEATURE_ALIASES = [
  'dashboard',
  'chargebacks',
  'alerts',
  'case-management',
  'reports',
  'midhealth',
  'resultant',
  'ert',
  'users',
  'settings',
  'hierarchy',
  'hierarchy-ag-grid',
  'templatelib',
  'profile',
  'mtd',
  'reconciliation-report',
  'onboarding',
  'reports-alerts',
  'qc-review',
  'cm-invalid-case',
  'review',
  'webhooks',
  'resource-api-documentation',
  'case-updater',
  'pre-chargebacks',
  'monitoring',
  'client-configuration',
  'features-list',
  'help',
  'users-create',
  'users-edit',
  'users-view',
  'merchant-add',
  'merchant-edit',
  'mid-add',
  'mid-edit',
  'ert-add',
  'ert-approve',
  'ert-bulk-upload',
  'case-builder',
  'edit_rdr',
  'users-export',
] as const;
export type FeatureAlias = (typeof FEATURE_ALIASES)[number];

/** Page roles / site permissions (spec 3 §6). */
export const RESOURCE_ALIASES = [
  'USERS',
  'REPORTS',
  'PRE_CHARGEBACKS_AGGRID',
  'CREATE_MERCHANT',
  'CREATE_MID',
  'EDIT_MERCHANT',
  'EDIT_MID',
  'MS_VIEW_DETAILS',
  'USERS_EXPORT_BUTTON',
  'QC_REVIEW_ADD_ERT',
  'EDIT_RDR',
  'MERCHANT_HIERARCHY',
  'cm-view-partner-admin-id',
] as const;

/** A feature as the profile carries it. */
export interface Feature {
  id: number;
  alias: string;
}

/**
 * GET /users/features/catalogue (the Features page, feature features-list):
 * which features and site permissions each role holds, from the user
 * service's tables, for staff to see what a tenant's users have on.
 */
const CatalogueEntry = Type.Object({ id: Type.Integer(), alias: Type.String(), name: Type.String() });
export const FeatureCatalogue = Type.Object({
  roles: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      label: Type.String(),
      feature_ids: Type.Array(Type.Integer()),
      resource_ids: Type.Array(Type.Integer()),
    }),
  ),
  features: Type.Array(CatalogueEntry),
  resources: Type.Array(
    Type.Composite([CatalogueEntry, Type.Object({ url: Type.Union([Type.String(), Type.Null()]) })]),
  ),
});
export type FeatureCatalogue = Static<typeof FeatureCatalogue>;
