import type { TenantBootstrap } from '@portal/contracts';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Once a session exists (while whoami is still loading), fetch the landing
 * screen's chunks and data in parallel: the dashboard, its chart and grid
 * chunks and its calls. The lazy components then resolve from the browser's
 * module map, the queries from the cache.
 */
export function preloadLandingScreen(
  pathname: string,
  queryClient: QueryClient,
  tenant: TenantBootstrap,
): void {
  if (!['/', '/login', '/dashboard'].includes(pathname)) return;
  void import('../../features/dashboard/routes/dashboard-route');
  void import('../../features/dashboard/prefetch-dashboard').then((m) =>
    m.prefetchDashboard(queryClient, tenant),
  );
  void import('../../components/charts/lazy-charts').then((m) => m.preloadCharts());
  void import('../../components/lazy-data-grid').then((m) => m.preloadDataGrid());
}
