import { Flex, Spinner } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { ErrorBoundary } from '../../components/error-boundary';
import { useProfile } from '../../lib/auth/auth-context';
import { usePageTitle } from '../../lib/page-title';
import { useTenant } from '../../lib/tenant-config';
import { buildMenu } from '../shell/menu';
import { canAccess, type RouteDef } from './catalogue';
import { NotFoundRoute } from './not-found';
import { PlaceholderRoute } from './placeholder';

// Heavy screens (ApexCharts, AG Grid) load with their routes only.
const DashboardRoute = lazy(() => import('../../features/dashboard/routes/dashboard-route'));
const MerchantSettingsRoute = lazy(
  () => import('../../features/merchant-admin/routes/merchant-settings-route'),
);
const MerchantHierarchyRoute = lazy(
  () => import('../../features/merchant-admin/routes/merchant-hierarchy-route'),
);
const MerchantUpdateRoute = lazy(() => import('../../features/merchant-admin/routes/merchant-update-route'));
const ChargebacksRoute = lazy(() => import('../../features/cases/routes/chargebacks-route'));
const CaseManagementRoute = lazy(() => import('../../features/cases/routes/case-management-route'));
const QcReviewRoute = lazy(() => import('./qc-review-list-route'));
const AdminReviewRoute = lazy(() => import('./admin-review-list-route'));
const QcReviewCaseRoute = lazy(() => import('../../features/review/routes/qc-review-case-route'));
const AdminReviewCaseRoute = lazy(() => import('../../features/review/routes/admin-review-case-route'));
const InvalidChargebacksRoute = lazy(() => import('../../features/cases/routes/invalid-chargebacks-route'));
const TemplateLibraryRoute = lazy(() => import('../../features/templates/routes/template-library-route'));
const TemplateLibraryNewRoute = lazy(
  () => import('../../features/templates/routes/template-library-new-route'),
);
const DownloadRoute = lazy(() => import('../../features/downloads/routes/download-route'));
const UsersRoute = lazy(() => import('../../features/users/routes/users-route'));
const UsersNewRoute = lazy(() => import('../../features/users/routes/users-new-route'));
const UserFormRoute = lazy(() => import('../../features/users/routes/user-form-route'));
const ProfileRoute = lazy(() => import('../../features/profile/routes/profile-route'));
const AlertsRoute = lazy(() => import('../../features/alerts/routes/alerts-route'));
const OnboardingRoute = lazy(() => import('../../features/onboarding/routes/onboarding-route'));
const OnboardingEditRoute = lazy(() => import('../../features/onboarding/routes/onboarding-edit-route'));
const CaseUpdaterRoute = lazy(() => import('../../features/case-updater/routes/case-updater-route'));
const ErtRoute = lazy(() => import('../../features/ert/routes/ert-route'));
const HelpRoute = lazy(() => import('../../features/help/routes/help-route'));
const ApiDocsRoute = lazy(() => import('../../features/api-docs/routes/api-docs-route'));
const FeaturesRoute = lazy(() => import('../../features/features-list/routes/features-route'));
const WebhooksRoute = lazy(() => import('../../features/webhooks/routes/webhooks-route'));
const ApiKeysRoute = lazy(() => import('../../features/api-keys/routes/api-keys-route'));
const AuditRoute = lazy(() => import('../../features/audit/routes/audit-route'));
const WinOddsRoute = lazy(() => import('../../features/win-odds/routes/win-odds-route'));
const ProductsRoute = lazy(() => import('../../features/account-setup/routes/products-route'));
// Reports (issue 18): ApexCharts and AG Grid come with these chunks only.
const ReportsRoute = lazy(() => import('../../features/reports/routes/reports-route'));
const KpiRoute = lazy(() => import('../../features/reports/routes/kpi-route'));
const MidHealthRoute = lazy(() => import('../../features/reports/routes/mid-health-route'));
const ReconciliationRoute = lazy(() => import('../../features/reports/routes/reconciliation-route'));
const MtdRoute = lazy(() => import('../../features/reports/routes/mtd-route'));
const AlertsReportRoute = lazy(() => import('../../features/reports/routes/alerts-report-route'));
const MonitoringRoute = lazy(() => import('../../features/reports/routes/monitoring-route'));

export function RouteLoading() {
  return (
    <Flex p="10" justify="center">
      <Spinner size="lg" color="brand.solid" />
    </Flex>
  );
}

function Screen({ def }: { def: RouteDef }) {
  const tenant = useTenant();
  switch (def.screen) {
    case 'dashboard':
      return <DashboardRoute />;
    case 'merchant-settings':
      return <MerchantSettingsRoute />;
    case 'merchant-hierarchy':
      return <MerchantHierarchyRoute />;
    case 'merchant-update':
      return <MerchantUpdateRoute />;
    case 'not-found':
      return <NotFoundRoute />;
    case 'chargebacks':
      return <ChargebacksRoute />;
    case 'case-management':
      return <CaseManagementRoute />;
    case 'qc-review':
      return <QcReviewRoute />;
    case 'admin-review':
      return <AdminReviewRoute />;
    case 'qc-review-case':
      return <QcReviewCaseRoute />;
    case 'admin-review-case':
      return <AdminReviewCaseRoute />;
    case 'invalid-chargebacks':
      return <InvalidChargebacksRoute />;
    case 'template-library':
      return <TemplateLibraryRoute />;
    case 'template-library-new':
      return <TemplateLibraryNewRoute />;
    case 'download':
      return <DownloadRoute />;
    case 'users':
      return <UsersRoute />;
    case 'users-new':
      return <UsersNewRoute />;
    case 'user-form':
      return <UserFormRoute />;
    case 'profile':
      return <ProfileRoute />;
    case 'alerts':
      return <AlertsRoute />;
    case 'onboarding':
      return <OnboardingRoute />;
    case 'onboarding-edit':
      return <OnboardingEditRoute />;
    case 'case-updater':
      return <CaseUpdaterRoute />;
    case 'ert':
      return <ErtRoute />;
    case 'help':
      return <HelpRoute />;
    case 'api-docs':
      return <ApiDocsRoute />;
    case 'features':
      return (
        <FeaturesRoute
          menuOf={(user) =>
            buildMenu(tenant.menu_variant, user, { alertsIframe: tenant.flags.ALERTS_IFRAME === true })
          }
        />
      );
    case 'webhooks':
      return <WebhooksRoute />;
    case 'api-keys':
      return <ApiKeysRoute />;
    case 'audit':
      return <AuditRoute />;
    case 'win-odds':
      return <WinOddsRoute />;
    case 'products':
      return <ProductsRoute />;
    case 'reports':
      return <ReportsRoute />;
    case 'resultant-kpi':
      return <KpiRoute />;
    case 'mid-health':
      return <MidHealthRoute />;
    case 'reconciliation':
      return <ReconciliationRoute />;
    case 'report-mtd':
      return <MtdRoute />;
    case 'report-alerts':
      return <AlertsReportRoute />;
    case 'report-monitoring':
      return <MonitoringRoute />;
    default:
      return <PlaceholderRoute title={def.title} />;
  }
}

/** Guard (feature / role -> /not-found), page title, area error boundary, lazy screen. */
export function RouteFrame({ def }: { def: RouteDef }) {
  const profile = useProfile();
  const { pathname } = useLocation();
  usePageTitle(def.title);
  if (!canAccess(def, profile)) return <Navigate to="/not-found" replace />;
  if (def.redirect) return <Navigate to={def.redirect} replace />;
  return (
    <ErrorBoundary area={def.area} resetKey={pathname}>
      <Suspense fallback={<RouteLoading />}>
        <Screen def={def} />
      </Suspense>
    </ErrorBoundary>
  );
}
