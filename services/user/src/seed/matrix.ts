import {
  CASE_BUILDER_ROLE,
  FEATURE_ALIASES,
  RESOURCE_ALIASES,
  ROLE_LABELS,
  ROLES,
  type FeatureAlias,
  type RoleName,
} from '@portal/contracts';

/**
 * Who sees what (spec 1 §2.3 menu, §6.2 features; spec 3 §6 page roles).
 * Feature ids are the 1-based position in FEATURE_ALIASES, resource ids the
 * 1-based position in RESOURCE_ALIASES, then DASHBOARD (a page resource so
 * that 'Login As' can land on /dashboard, spec 1 §4.4).
 *
 * | menu entry / feature            | admin | manager | agent | p.admin | p.user | m.admin | m.user |
 * |---------------------------------|:-----:|:-------:|:-----:|:-------:|:------:|:-------:|:------:|
 * | dashboard, chargebacks, alerts, pre-chargebacks, cm-invalid-case,
 * | case-management, reports, mtd, midhealth, resultant,
 * | reconciliation-report, reports-alerts, monitoring, ert,
 * | settings, profile, help, resource-api-documentation, templatelib | x | x | x | x | x | x | x |
 * | hierarchy, hierarchy-ag-grid    |   x   |    x    |   x   |    x    |   x    |    x    |   x    |
 * | case-builder                    |   x   |    x    |   x   |    x    |   x    |    x    |   x    |
 * | ert-add                         |   x   |    x    |   x   |    x    |   x    |    x    |        |
 * | users, users-view               |   x   |    x    |   x   |    x    |   x    |    x    |        |
 * | users-create, users-edit, users-export | x |  x    |       |    x    |        |    x    |        |
 * | webhooks, edit_rdr, mid-edit    |   x   |    x    |       |    x    |        |    x    |        |
 * | onboarding, merchant-add/edit, mid-add | x |  x    |       |    x    |        |         |        |
 * | qc-review, review, case-updater |   x   |    x    |   x   |         |        |         |        |
 * | ert-approve, ert-bulk-upload    |   x   |    x    |       |         |        |         |        |
 * | client-configuration, features-list | x |         |       |         |        |         |        |
 *
 * | resource (page role)            | admin | manager | agent | p.admin | p.user | m.admin | m.user |
 * |---------------------------------|:-----:|:-------:|:-----:|:-------:|:------:|:-------:|:------:|
 * | DASHBOARD, REPORTS, PRE_CHARGEBACKS_AGGRID, MS_VIEW_DETAILS, MERCHANT_HIERARCHY | x | x | x | x | x | x | x |
 * | USERS                           |   x   |    x    |   x   |    x    |   x    |    x    |        |
 * | USERS_EXPORT_BUTTON, EDIT_RDR, EDIT_MID | x | x     |       |    x    |        |    x    |        |
 * | CREATE_MERCHANT, CREATE_MID, EDIT_MERCHANT, cm-view-partner-admin-id | x | x | | x |  |         |        |
 * | QC_REVIEW_ADD_ERT, QC_REVIEW_CHECKBOX |   x   |    x    |   x   |         |        |         |        |
 *
 * Per-user site permissions (allow/deny) and the read-only flag refine this.
 */
const EVERYONE: FeatureAlias[] = [
  'dashboard',
  'chargebacks',
  'alerts',
  'pre-chargebacks',
  'cm-invalid-case',
  'case-management',
  'reports',
  'mtd',
  'midhealth',
  'resultant',
  'reconciliation-report',
  'reports-alerts',
  'monitoring',
  'ert',
  'settings',
  'profile',
  'help',
  'resource-api-documentation',
  'templatelib',
  'hierarchy',
  'hierarchy-ag-grid',
  'case-builder',
];
const USER_VIEW: FeatureAlias[] = ['users', 'users-view', 'ert-add'];
const USER_ADMIN: FeatureAlias[] = [
  'users-create',
  'users-edit',
  'users-export',
  'webhooks',
  'edit_rdr',
  'mid-edit',
];
const MERCHANT_ADMIN: FeatureAlias[] = ['onboarding', 'merchant-add', 'merchant-edit', 'mid-add'];
const CASE_STAFF: FeatureAlias[] = ['qc-review', 'review', 'case-updater'];
const ERT_STAFF: FeatureAlias[] = ['ert-approve', 'ert-bulk-upload'];

export const ROLE_FEATURES: Record<RoleName, readonly FeatureAlias[]> = {
  cb911_admin: FEATURE_ALIASES,
  cb911_manager: [...EVERYONE, ...USER_VIEW, ...USER_ADMIN, ...MERCHANT_ADMIN, ...CASE_STAFF, ...ERT_STAFF],
  cb911_agent: [...EVERYONE, ...USER_VIEW, ...CASE_STAFF],
  partner_admin: [...EVERYONE, ...USER_VIEW, ...USER_ADMIN, ...MERCHANT_ADMIN],
  partner_user: [...EVERYONE, ...USER_VIEW],
  merchant_admin: [...EVERYONE, ...USER_VIEW, ...USER_ADMIN],
  merchant_user: EVERYONE,
};

const DASHBOARD_RESOURCE = 'DASHBOARD';
// QC_REVIEW_CHECKBOX (spec 2 §6: the upload modal's 'Send the case for Quality Review') comes last: ids stay put.
// 'case-builder' (spec 2 §6, issue 13): the case-builder role, held by a per-user allow (no role has it by default).
export const ALL_RESOURCES = [
  ...RESOURCE_ALIASES,
  DASHBOARD_RESOURCE,
  'QC_REVIEW_CHECKBOX',
  CASE_BUILDER_ROLE,
] as const;
type SeedResource = (typeof ALL_RESOURCES)[number];

export const RESOURCE_INFO: Record<SeedResource, { name: string; url: string | null }> = {
  USERS: { name: 'Users', url: '/users' },
  REPORTS: { name: 'Reports', url: '/reports' },
  PRE_CHARGEBACKS_AGGRID: { name: 'Pre-Chargebacks', url: '/pre-chargebacks' },
  CREATE_MERCHANT: { name: 'Create merchant', url: null },
  CREATE_MID: { name: 'Create MID', url: null },
  EDIT_MERCHANT: { name: 'Edit merchant', url: null },
  EDIT_MID: { name: 'Edit MID', url: null },
  MS_VIEW_DETAILS: { name: 'View merchant details', url: null },
  USERS_EXPORT_BUTTON: { name: 'Export users', url: null },
  QC_REVIEW_ADD_ERT: { name: 'Add ERT from QC review', url: null },
  QC_REVIEW_CHECKBOX: { name: 'Send uploads for Quality Review', url: null },
  'case-builder': { name: 'Case builder', url: null },
  EDIT_RDR: { name: 'Edit RDR rules', url: null },
  MERCHANT_HIERARCHY: { name: 'Merchant hierarchy', url: '/merchant-hierarchy' },
  'cm-view-partner-admin-id': { name: 'View partner admin id', url: null },
  DASHBOARD: { name: 'Dashboard', url: '/dashboard' },
};

const BASE_RESOURCES: SeedResource[] = [
  'DASHBOARD',
  'REPORTS',
  'PRE_CHARGEBACKS_AGGRID',
  'MS_VIEW_DETAILS',
  'MERCHANT_HIERARCHY',
];
const ADMIN_RESOURCES: SeedResource[] = ['USERS_EXPORT_BUTTON', 'EDIT_RDR', 'EDIT_MID'];
const MERCHANT_RESOURCES: SeedResource[] = [
  'CREATE_MERCHANT',
  'CREATE_MID',
  'EDIT_MERCHANT',
  'cm-view-partner-admin-id',
];

export const ROLE_RESOURCES: Record<RoleName, readonly SeedResource[]> = {
  // Every resource but the case-builder role, which is held per user (spec 2 §6, issue 13).
  cb911_admin: ALL_RESOURCES.filter((r) => r !== CASE_BUILDER_ROLE),
  cb911_manager: [
    ...BASE_RESOURCES,
    'USERS',
    ...ADMIN_RESOURCES,
    ...MERCHANT_RESOURCES,
    'QC_REVIEW_ADD_ERT',
    'QC_REVIEW_CHECKBOX',
  ],
  cb911_agent: [...BASE_RESOURCES, 'USERS', 'QC_REVIEW_ADD_ERT', 'QC_REVIEW_CHECKBOX'],
  partner_admin: [...BASE_RESOURCES, 'USERS', ...ADMIN_RESOURCES, ...MERCHANT_RESOURCES],
  partner_user: [...BASE_RESOURCES, 'USERS'],
  merchant_admin: [...BASE_RESOURCES, 'USERS', ...ADMIN_RESOURCES],
  merchant_user: BASE_RESOURCES,
};

export const featureId = (alias: FeatureAlias) => FEATURE_ALIASES.indexOf(alias) + 1;
export const resourceId = (alias: SeedResource) => ALL_RESOURCES.indexOf(alias) + 1;

export const ROLE_ROWS = (Object.keys(ROLES) as RoleName[]).map((name) => ({
  id: ROLES[name],
  name,
  label: ROLE_LABELS[name],
}));

/** Email notification settings (spec 3: expected 4). */
export const NOTIFICATION_TYPES = [
  { id: 1, name: 'New chargebacks', alias: 'new_chargebacks' },
  { id: 2, name: 'Chargebacks expiring soon', alias: 'expiring_chargebacks' },
  { id: 3, name: 'New alerts', alias: 'new_alerts' },
  { id: 4, name: 'Weekly summary report', alias: 'weekly_summary' },
] as const;
