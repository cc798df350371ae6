import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_ROUTES, ROUTES, canAccess, routesFor } from '../routes/catalogue';
import { activeItemPath, activeSection, buildMenu, switchGridView } from './menu';

const user = (aliases: string[], theme_variant = 1) => ({
  features: aliases.map((alias, id) => ({ id, alias })),
  resources: [],
  theme_variant,
});

describe('menu building (spec 1 §2.3)', () => {
  it('shows only entries whose feature the user holds', () => {
    const menu = buildMenu('classic', user(['dashboard', 'chargebacks', 'case-management', 'help']));
    expect(menu.map((s) => [s.label, s.items.map((i) => i.label)])).toEqual([
      ['Dashboard', ['Dashboard']],
      ['Chargebacks', ['Chargebacks', 'Case Management']],
      ['Support', ['Help']],
    ]);
  });
  it('data-grid variant: -new paths and no Pre-Chargebacks', () => {
    const menu = buildMenu('data-grid', user(['pre-chargebacks', 'chargebacks', 'users', 'alerts']));
    expect(menu.flatMap((s) => s.items.map((i) => i.path))).toEqual([
      '/chargebacks-new',
      '/alerts-new',
      '/users-new',
    ]);
  });
  it('data-grid variant with the alerts iframe: Alerts stays /alerts (no /alerts-new route then)', () => {
    const menu = buildMenu('data-grid', user(['chargebacks', 'alerts']), { alertsIframe: true });
    expect(menu.flatMap((s) => s.items.map((i) => i.path))).toEqual(['/chargebacks-new', '/alerts']);
    const iframeTenant = { flags: { ALERTS_IFRAME: true } } as unknown as Parameters<typeof routesFor>[0];
    expect(routesFor(iframeTenant).some((r) => r.path === '/alerts-new')).toBe(false);
  });
  it('marks case management for the partner-branded variant only', () => {
    const plain = buildMenu('classic', user(['case-management']), { marker: 'PN' });
    const branded = buildMenu('classic', user(['case-management'], 2), { marker: 'PN' });
    expect(plain[0]!.items[0]!.marker).toBeUndefined();
    expect(branded[0]!.items[0]!.marker).toBe('PN');
  });
  it('API Documentation collapses the sidebar; the active section is found', () => {
    const menu = buildMenu('classic', user(['resource-api-documentation', 'reports', 'mtd']));
    expect(menu.find((s) => s.label === 'Support')!.items[0]!.collapses).toBe(true);
    expect(activeSection(menu, '/mtd')).toBe('Reports');
  });
  it('highlights only the most specific entry (issue 29.2)', () => {
    const menu = buildMenu('classic', user(['reports', 'monitoring', 'qc-review', 'onboarding']));
    expect(activeItemPath(menu, '/reports/monitoring')).toBe('/reports/monitoring');
    expect(activeItemPath(menu, '/reports')).toBe('/reports');
    expect(activeItemPath(menu, '/case-qc-review/view-case/7')).toBe('/case-qc-review');
    expect(activeItemPath(menu, '/onboarding/edit/3')).toBe('/onboarding');
    expect(activeItemPath(menu, '/reports-x')).toBeNull();
    expect(activeSection(menu, '/reports/monitoring')).toBe('Reports');
  });
  it('offers the audit log to the roles that edit users only', () => {
    const admin = buildMenu('classic', user(['users', 'users-edit', 'review']));
    expect(admin.find((s) => s.label === 'Admin')!.items.map((i) => i.path)).toEqual(['/review', '/audit']);
    const agent = buildMenu('classic', user(['users', 'review']));
    expect(agent.find((s) => s.label === 'Admin')!.items.map((i) => i.path)).toEqual(['/review']);
  });
  it('shows Webhooks to merchant and partner admins only, as the server allows (issue 19)', () => {
    const withRole = (role: string) => ({ ...user(['webhooks', 'settings']), roles: [role] });
    const settings = (role: string) =>
      buildMenu('classic', withRole(role))
        .find((s) => s.label === 'Settings')!
        .items.map((i) => i.path);
    expect(settings('merchant_admin')).toContain('/webhooks');
    expect(settings('partner_admin')).toContain('/webhooks');
    for (const staff of ['cb911_admin', 'cb911_manager']) expect(settings(staff)).not.toContain('/webhooks');
    const route = ROUTES.find((r) => r.path === '/webhooks')!;
    expect(canAccess(route, { features: [{ alias: 'webhooks' }], roles: ['cb911_admin'] })).toBe(false);
    expect(canAccess(route, { features: [{ alias: 'webhooks' }], roles: ['merchant_admin'] })).toBe(true);
  });
  it('switches grid views by the -new suffix', () => {
    expect(switchGridView('/users')).toBe('/users-new');
    expect(switchGridView('/users-new')).toBe('/users');
    expect(switchGridView('/dashboard')).toBeNull();
  });
});

describe('route catalogue (spec 1 §2.2)', () => {
  it('registers every route of the spec', () => {
    const paths = ROUTES.map((r) => r.path);
    for (const p of [
      '/dashboard',
      '/chargebacks',
      '/invalid-chargebacks',
      '/alerts',
      '/pre-chargebacks',
      '/alerts-new',
      '/pre-chargebacks-new',
      '/case-management',
      '/case-management-legacy',
      '/case-updater',
      '/case-updater-legacy',
      '/case-qc-review',
      '/case-qc-review/view-case/:caseId?',
      '/review',
      '/review/view-case/:caseId?',
      '/review-legacy',
      '/reports/monitoring',
      '/reports',
      '/mtd',
      '/ert',
      '/ert-legacy',
      '/resultant-kpi',
      '/mid-health',
      '/reconciliation-report',
      '/reports/alerts',
      '/users',
      '/user/update',
      '/user/update/:userId',
      '/settings',
      '/settings/profile',
      '/merchant-hierarchy',
      '/merchant-settings',
      '/merchant/update/:merchantId',
      '/template-library',
      '/onboarding',
      '/onboarding-legacy',
      '/onboarding/edit/:onboardingId',
      '/onboarding-legacy/edit/:onboardingId',
      '/help',
      '/resource-api-documentation',
      '/webhooks',
      '/download',
      '/not-found',
      '/features',
    ])
      expect(paths).toContain(p);
  });
  it('lists the placeholder (coming soon) routes', () => {
    console.info(
      `coming-soon placeholders (${PLACEHOLDER_ROUTES.length}):\n  ${PLACEHOLDER_ROUTES.join('\n  ')}`,
    );
    expect(PLACEHOLDER_ROUTES).not.toContain('/dashboard');
    expect(PLACEHOLDER_ROUTES).not.toContain('/merchant-settings');
    // Every route has its screen since /reports (issue 18) and /features were built.
    expect(PLACEHOLDER_ROUTES).not.toContain('/reports');
    expect(PLACEHOLDER_ROUTES).not.toContain('/features');
  });
  it('guards by feature and role', () => {
    const review = ROUTES.find((r) => r.path === '/review')!;
    expect(canAccess(review, { features: [{ alias: 'review' }], roles: ['merchant_admin'] })).toBe(false);
    expect(canAccess(review, { features: [{ alias: 'review' }], roles: ['cb911_admin'] })).toBe(true);
    expect(
      canAccess(
        ROUTES.find((r) => r.path === '/dashboard')!,
        { features: [], roles: ['cb911_admin'] },
      ),
    ).toBe(false);
  });
});
