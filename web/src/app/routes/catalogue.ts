import {
  API_KEY_MANAGER_ROLES,
  hasAnyRole,
  PROVIDER_ROLES,
  USER_ADMIN_ROLES,
  WEBHOOK_OWNER_ROLES,
  type TenantBootstrap,
} from '@portal/contracts';

/**
 * Every signed-in route of spec 1 §2.2 (exact matches), with the feature a
 * user needs (spec 6.2) and optional roles. `screen` names the built screens;
 * all others render the 'coming soon' placeholder inside the shell and are
 * listed by PLACEHOLDER_ROUTES (a test prints them).
 */
export type Screen =
  | 'dashboard'
  | 'merchant-settings'
  | 'merchant-hierarchy'
  | 'merchant-update'
  | 'not-found'
  | 'chargebacks'
  | 'case-management'
  | 'qc-review'
  | 'admin-review'
  | 'qc-review-case'
  | 'admin-review-case'
  | 'invalid-chargebacks'
  | 'template-library'
  | 'template-library-new'
  | 'download'
  | 'alerts'
  | 'users'
  | 'users-new'
  | 'user-form'
  | 'profile'
  | 'onboarding'
  | 'onboarding-edit'
  | 'case-updater'
  | 'ert'
  | 'help'
  | 'api-docs'
  | 'features'
  | 'audit'
  | 'win-odds'
  // Reports (issue 18)
  | 'reports'
  | 'resultant-kpi'
  | 'mid-health'
  | 'reconciliation'
  | 'report-mtd'
  | 'report-alerts'
  | 'report-monitoring'
  | 'webhooks'
  | 'api-keys'
  | 'products';

export interface RouteDef {
  path: string;
  title: string;
  /** Area name for 'Something went wrong in {area}!'. */
  area: string;
  feature?: string;
  roles?: readonly string[];
  screen?: Screen;
  /** Another name of a route: the app goes there (whose own guard then applies). */
  redirect?: string;
  /** Registered only when this returns true for the tenant. */
  when?: (tenant: TenantBootstrap) => boolean;
}

const alertsIframeOff = (t: TenantBootstrap) => !t.flags.ALERTS_IFRAME;

export const ROUTES: readonly RouteDef[] = [
  { path: '/dashboard', title: 'Dashboard', area: 'Dashboard', feature: 'dashboard', screen: 'dashboard' },
  // Chargebacks
  {
    path: '/chargebacks',
    title: 'Chargebacks',
    area: 'Chargebacks',
    feature: 'chargebacks',
    screen: 'chargebacks',
  },
  {
    path: '/chargebacks-new',
    title: 'Chargebacks',
    area: 'Chargebacks',
    feature: 'chargebacks',
    screen: 'chargebacks',
  },
  {
    path: '/invalid-chargebacks',
    title: 'Invalid Chargebacks',
    area: 'Chargebacks',
    feature: 'cm-invalid-case',
    screen: 'invalid-chargebacks',
  },
  {
    path: '/invalid-chargebacks-new',
    title: 'Invalid Chargebacks',
    area: 'Chargebacks',
    feature: 'cm-invalid-case',
    screen: 'invalid-chargebacks',
  },
  // Alerts
  { path: '/alerts', title: 'Alerts', area: 'Alerts', feature: 'alerts', screen: 'alerts' },
  {
    path: '/pre-chargebacks',
    title: 'Pre-Chargebacks',
    area: 'Alerts',
    feature: 'pre-chargebacks',
    screen: 'alerts',
  },
  {
    path: '/alerts-new',
    title: 'Alerts',
    area: 'Alerts',
    feature: 'alerts',
    when: alertsIframeOff,
    screen: 'alerts',
  },
  {
    path: '/pre-chargebacks-new',
    title: 'Pre-Chargebacks',
    area: 'Alerts',
    feature: 'pre-chargebacks',
    when: alertsIframeOff,
    screen: 'alerts',
  },
  // Case management
  {
    path: '/case-management',
    title: 'Case Management',
    area: 'Case Management',
    feature: 'case-management',
    screen: 'case-management',
  },
  {
    path: '/case-management-legacy',
    title: 'Case Management',
    area: 'Case Management',
    feature: 'case-management',
    screen: 'case-management',
  },
  {
    path: '/case-updater',
    title: 'Case Updater',
    area: 'Case Management',
    feature: 'case-updater',
    screen: 'case-updater',
  },
  {
    path: '/case-updater-legacy',
    title: 'Case Updater',
    area: 'Case Management',
    feature: 'case-updater',
    screen: 'case-updater',
  },
  // QC and admin review
  {
    path: '/case-qc-review',
    title: 'QC Review',
    area: 'QC Review',
    feature: 'qc-review',
    screen: 'qc-review',
  },
  {
    path: '/case-qc-review-new',
    title: 'QC Review',
    area: 'QC Review',
    feature: 'qc-review',
    screen: 'qc-review',
  },
  {
    path: '/case-qc-review/view-case/:caseId?',
    title: 'QC Review Case',
    area: 'QC Review',
    feature: 'qc-review',
    screen: 'qc-review-case',
  },
  {
    path: '/review',
    title: 'Review',
    area: 'Review',
    feature: 'review',
    roles: PROVIDER_ROLES,
    screen: 'admin-review',
  },
  {
    path: '/review/view-case/:caseId?',
    title: 'Review Case',
    area: 'Review',
    feature: 'review',
    roles: PROVIDER_ROLES,
    screen: 'admin-review-case',
  },
  {
    path: '/review-legacy',
    title: 'Review',
    area: 'Review',
    feature: 'review',
    roles: PROVIDER_ROLES,
    screen: 'admin-review',
  },
  // Reports
  {
    path: '/reports/monitoring',
    title: 'Monitoring',
    area: 'Reports',
    feature: 'monitoring',
    screen: 'report-monitoring',
  },
  { path: '/reports', title: 'Reports', area: 'Reports', feature: 'reports', screen: 'reports' },
  { path: '/mtd', title: 'Month-to-Date', area: 'Reports', feature: 'mtd', screen: 'report-mtd' },
  { path: '/ert', title: 'ERT', area: 'Notifications', feature: 'ert', screen: 'ert' },
  { path: '/ert-legacy', title: 'ERT', area: 'Notifications', feature: 'ert', screen: 'ert' },
  {
    path: '/resultant-kpi',
    title: 'Resultant KPI',
    area: 'Reports',
    feature: 'resultant',
    screen: 'resultant-kpi',
  },
  { path: '/mid-health', title: 'MID Health', area: 'Reports', feature: 'midhealth', screen: 'mid-health' },
  {
    path: '/mid-health-new',
    title: 'MID Health',
    area: 'Reports',
    feature: 'midhealth',
    screen: 'mid-health',
  },
  {
    path: '/reconciliation-report',
    title: 'Reconciliation Report',
    area: 'Reports',
    feature: 'reconciliation-report',
    screen: 'reconciliation',
  },
  {
    path: '/reconciliation-report-new',
    title: 'Reconciliation Report',
    area: 'Reports',
    feature: 'reconciliation-report',
    screen: 'reconciliation',
  },
  {
    path: '/reports/alerts',
    title: 'Alerts Report',
    area: 'Reports',
    feature: 'reports-alerts',
    screen: 'report-alerts',
  },
  // Users
  { path: '/users', title: 'Users', area: 'User Management', feature: 'users', screen: 'users' },
  { path: '/users-new', title: 'Users', area: 'User Management', feature: 'users', screen: 'users-new' },
  { path: '/user/update', title: 'Add User', area: 'User Management', feature: 'users', screen: 'user-form' },
  {
    path: '/user/update/:userId',
    title: 'Edit User',
    area: 'User Management',
    feature: 'users',
    screen: 'user-form',
  },
  // Settings
  { path: '/settings', title: 'Profile Settings', area: 'Settings', feature: 'settings', screen: 'profile' },
  {
    path: '/settings-new',
    title: 'Profile Settings',
    area: 'Settings',
    feature: 'settings',
    screen: 'profile',
  },
  { path: '/settings/profile', title: 'Profile', area: 'Settings', feature: 'profile', screen: 'profile' },
  {
    path: '/merchant-hierarchy',
    title: 'Merchant Hierarchies',
    area: 'Settings',
    feature: 'hierarchy',
    screen: 'merchant-hierarchy',
  },
  {
    path: '/merchant-settings',
    title: 'Merchant Settings',
    area: 'Settings',
    feature: 'settings',
    screen: 'merchant-settings',
  },
  {
    path: '/merchant/update/:merchantId',
    title: 'Edit Merchant',
    area: 'Settings',
    feature: 'hierarchy',
    screen: 'merchant-update',
  },
  {
    path: '/template-library',
    title: 'Templates Library',
    area: 'Settings',
    feature: 'templatelib',
    screen: 'template-library',
  },
  {
    path: '/template-library-new',
    title: 'Templates Library',
    area: 'Settings',
    feature: 'templatelib',
    screen: 'template-library-new',
  },
  // Onboarding
  {
    path: '/onboarding',
    title: 'Onboarding',
    area: 'Onboarding',
    feature: 'onboarding',
    screen: 'onboarding',
  },
  {
    path: '/onboarding-legacy',
    title: 'Onboarding',
    area: 'Onboarding',
    feature: 'onboarding',
    screen: 'onboarding',
  },
  {
    path: '/onboarding/edit/:onboardingId',
    title: 'Edit Onboarding',
    area: 'Onboarding',
    feature: 'onboarding',
    screen: 'onboarding-edit',
  },
  {
    path: '/onboarding-legacy/edit/:onboardingId',
    title: 'Edit Onboarding',
    area: 'Onboarding',
    feature: 'onboarding',
    screen: 'onboarding-edit',
  },
  // Support
  { path: '/help', title: 'Help', area: 'Support', feature: 'help', screen: 'help' },
  {
    path: '/resource-api-documentation',
    title: 'API Documentation',
    area: 'Support',
    feature: 'resource-api-documentation',
    screen: 'api-docs',
  },
  // Other
  // Webhooks: merchant and partner admins only, as the user service rules (staff are sent to /not-found).
  {
    path: '/webhooks',
    title: 'Webhooks',
    area: 'Settings',
    feature: 'webhooks',
    roles: WEBHOOK_OWNER_ROLES,
    screen: 'webhooks',
  },
  // Merchant API keys (issue 35.1): the roles that manage keys, as the user service rules.
  {
    path: '/api-keys',
    title: 'API Keys',
    area: 'Settings',
    feature: 'settings',
    roles: API_KEY_MANAGER_ROLES,
    screen: 'api-keys',
  },
  { path: '/download', title: 'Download', area: 'Download', screen: 'download' },
  {
    path: '/features',
    title: 'Features',
    area: 'Configuration',
    feature: 'features-list',
    screen: 'features',
  },
  { path: '/not-found', title: 'Page Not Found', area: 'Not Found', screen: 'not-found' },
  // The Account Setup modal's links (spec 3 §2; issue 19): three name screens that exist, /products is its own.
  { path: '/accountsetup', title: 'Account Setup', area: 'Settings', redirect: '/settings' },
  { path: '/mids', title: 'MIDs', area: 'Settings', redirect: '/merchant-settings' },
  { path: '/Templates', title: 'Templates Library', area: 'Settings', redirect: '/template-library' },
  {
    path: '/products',
    title: 'Products',
    area: 'Settings',
    feature: 'case-builder',
    roles: ['case-builder'],
    screen: 'products',
  },
  // Audit log (issue 19): the roles that administer users (the gateway's policy names the same ones).
  {
    path: '/audit',
    title: 'Audit Log',
    area: 'Admin',
    feature: 'users',
    roles: USER_ADMIN_ROLES,
    screen: 'audit',
  },
  // Win odds (issue 33): the model's evaluation and 'Retrain now', for the provider's staff (as the gateway).
  {
    path: '/win-odds',
    title: 'Win Odds',
    area: 'Admin',
    feature: 'review',
    roles: PROVIDER_ROLES,
    screen: 'win-odds',
  },
];

/** Routes registered for a tenant. */
export function routesFor(tenant: TenantBootstrap): RouteDef[] {
  return ROUTES.filter((r) => !r.when || r.when(tenant));
}

/** Screens not built yet: they show the 'coming soon' placeholder inside the shell. */
export const PLACEHOLDER_ROUTES: readonly string[] = ROUTES.filter((r) => !r.screen && !r.redirect).map(
  (r) => r.path,
);

/** Does the user hold what the route needs? Features by alias; roles if any listed role is held. */
export function canAccess(
  route: Pick<RouteDef, 'feature' | 'roles'>,
  user: { features: { alias: string }[]; roles: string[] },
): boolean {
  if (route.feature && !user.features.some((f) => f.alias === route.feature)) return false;
  if (route.roles && !hasAnyRole(user.roles, route.roles)) return false;
  return true;
}
