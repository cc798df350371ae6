import { API_KEY_MANAGER_ROLES, PROVIDER_ROLES, WEBHOOK_OWNER_ROLES } from '@portal/contracts';

/**
 * The menus of spec 1 §2.3, built from the user's features (and resources
 * with a url, which also grant their page). Classic and data-grid variants.
 */
export interface MenuItem {
  label: string;
  path: string;
  feature: string;
  /** Choosing it collapses (minimises) the sidebar. */
  collapses?: boolean;
  /** Partner-branded marker (case management, theme_variant > 1). */
  marker?: string;
  /** When set, only these roles see the entry (the server refuses the others). */
  roles?: readonly string[];
}

export interface MenuSection {
  label: string;
  /** A top-level entry has one item and no heading. */
  single?: boolean;
  items: MenuItem[];
}

type Variant = 'classic' | 'data-grid';

const CLASSIC: MenuSection[] = [
  {
    label: 'Dashboard',
    single: true,
    items: [{ label: 'Dashboard', path: '/dashboard', feature: 'dashboard' }],
  },
  {
    label: 'Pre-Chargebacks',
    single: true,
    items: [{ label: 'Pre-Chargebacks', path: '/pre-chargebacks', feature: 'pre-chargebacks' }],
  },
  {
    label: 'Chargebacks',
    items: [
      { label: 'Chargebacks', path: '/chargebacks', feature: 'chargebacks' },
      { label: 'Invalid Chargebacks', path: '/invalid-chargebacks', feature: 'cm-invalid-case' },
      { label: 'Case Management', path: '/case-management', feature: 'case-management' },
      { label: 'QC Review', path: '/case-qc-review', feature: 'qc-review' },
      { label: 'Updater', path: '/case-updater', feature: 'case-updater' },
    ],
  },
  { label: 'Alerts', single: true, items: [{ label: 'Alerts', path: '/alerts', feature: 'alerts' }] },
  {
    label: 'Reports',
    items: [
      { label: 'Reports', path: '/reports', feature: 'reports' },
      { label: 'Month-to-Date', path: '/mtd', feature: 'mtd' },
      { label: 'MID Health', path: '/mid-health', feature: 'midhealth' },
      { label: 'Resultant KPI', path: '/resultant-kpi', feature: 'resultant' },
      { label: 'Reconciliation Report', path: '/reconciliation-report', feature: 'reconciliation-report' },
      { label: 'Alerts Report', path: '/reports/alerts', feature: 'reports-alerts' },
      { label: 'Monitoring', path: '/reports/monitoring', feature: 'monitoring' },
    ],
  },
  { label: 'Notifications', items: [{ label: 'ERT', path: '/ert', feature: 'ert' }] },
  { label: 'User Management', items: [{ label: 'Users', path: '/users', feature: 'users' }] },
  {
    label: 'Settings',
    items: [
      { label: 'Profile Settings', path: '/settings', feature: 'settings' },
      { label: 'Merchant Hierarchies', path: '/merchant-hierarchy', feature: 'hierarchy' },
      { label: 'Merchant Settings', path: '/merchant-settings', feature: 'settings' },
      { label: 'Templates Library', path: '/template-library', feature: 'templatelib' },
      { label: 'Onboarding', path: '/onboarding', feature: 'onboarding' },
      // The user service lets merchant and partner admins only manage webhooks (their own merchants' events);
      // provider staff hold the feature but would meet a refusal, so the entry is theirs to miss (issue 19).
      { label: 'Webhooks', path: '/webhooks', feature: 'webhooks', roles: WEBHOOK_OWNER_ROLES },
      // Merchant API keys (issue 35.1): the roles that may manage them.
      { label: 'API Keys', path: '/api-keys', feature: 'settings', roles: API_KEY_MANAGER_ROLES },
    ],
  },
  {
    label: 'Admin',
    items: [
      { label: 'Review', path: '/review', feature: 'review' },
      // Ours (issue 19): the audit log, for the roles that edit users (the route also checks the role).
      { label: 'Audit Log', path: '/audit', feature: 'users-edit' },
      // Ours (issue 33): the win odds model's evaluation, for the provider's staff.
      { label: 'Win Odds', path: '/win-odds', feature: 'review', roles: PROVIDER_ROLES },
    ],
  },
  { label: 'Configuration', items: [{ label: 'Features', path: '/features', feature: 'features-list' }] },
  {
    label: 'Support',
    items: [
      { label: 'Help', path: '/help', feature: 'help' },
      {
        label: 'API Documentation',
        path: '/resource-api-documentation',
        feature: 'resource-api-documentation',
        collapses: true,
      },
    ],
  },
];

/** The data-grid variant's paths (spec 2.3); it has no Pre-Chargebacks entry. */
export const DATA_GRID_PATHS: Record<string, string> = {
  '/chargebacks': '/chargebacks-new',
  '/invalid-chargebacks': '/invalid-chargebacks-new',
  '/case-qc-review': '/case-qc-review-new',
  '/alerts': '/alerts-new',
  '/mid-health': '/mid-health-new',
  '/reconciliation-report': '/reconciliation-report-new',
  '/users': '/users-new',
  '/settings': '/settings-new',
  '/template-library': '/template-library-new',
};

export interface MenuUser {
  features: { alias: string }[];
  resources?: { url: string | null }[];
  /** The user's role names; an entry limited to roles is hidden when none is held. */
  roles?: readonly string[];
  theme_variant?: number;
}

/**
 * A menu entry's path in the data-grid variant. With the alerts iframe (tenant flag ALERTS_IFRAME) the
 * alerts screens have no -new form (the catalogue registers /alerts-new only without it): the entry
 * stays /alerts, which shows the embedded form.
 */
function dataGridPath(path: string, alertsIframe: boolean): string {
  if (alertsIframe && path === '/alerts') return path;
  return DATA_GRID_PATHS[path] ?? path;
}

export function buildMenu(
  variant: Variant,
  user: MenuUser,
  options: { marker?: string; alertsIframe?: boolean } = {},
): MenuSection[] {
  const features = new Set(user.features.map((f) => f.alias));
  const resourceUrls = new Set((user.resources ?? []).map((r) => r.url).filter(Boolean));
  const showMarker = (user.theme_variant ?? 1) > 1 && !!options.marker;
  const sections: MenuSection[] = [];
  for (const section of CLASSIC) {
    if (variant === 'data-grid' && section.label === 'Pre-Chargebacks') continue;
    const items = section.items
      .filter((i) => features.has(i.feature) || resourceUrls.has(i.path))
      .filter((i) => !i.roles || i.roles.some((r) => user.roles?.includes(r)))
      .map((i) => ({
        ...i,
        path: variant === 'data-grid' ? dataGridPath(i.path, options.alertsIframe === true) : i.path,
        marker: i.path === '/case-management' && showMarker ? options.marker : undefined,
      }));
    if (items.length) sections.push({ ...section, items });
  }
  return sections;
}

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/**
 * The one entry to highlight for a path: the most specific entry whose path is the path or a parent of it
 * (on /reports/monitoring that is Monitoring, not also Reports; on /case-qc-review/view-case/7, QC Review).
 */
export function activeItemPath(sections: MenuSection[], pathname: string): string | null {
  let best: string | null = null;
  for (const s of sections)
    for (const i of s.items)
      if (under(pathname, i.path) && i.path.length > (best?.length ?? 0)) best = i.path;
  return best;
}

/** The section holding the current path's entry: it stays open. */
export function activeSection(sections: MenuSection[], pathname: string): string | null {
  const path = activeItemPath(sections, pathname);
  return sections.find((s) => s.items.some((i) => i.path === path))?.label ?? null;
}

/** A grid page's other view: classic <-> the -new suffix (spec 2.3). */
export function switchGridView(pathname: string): string | null {
  if (pathname.endsWith('-new')) return pathname.slice(0, -4);
  return Object.prototype.hasOwnProperty.call(DATA_GRID_PATHS, pathname) ? DATA_GRID_PATHS[pathname]! : null;
}
