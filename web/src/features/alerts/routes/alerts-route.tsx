import { Navigate, useLocation } from 'react-router-dom';
import { useProfile } from '../../../lib/auth/auth-context';
import { hasResource } from '../../../lib/auth/resources';
import { useTenant } from '../../../lib/tenant-config';
import { AlertsEmbed } from '../components/alerts-embed';
import { AlertsGrid } from '../components/alerts-grid';

/**
 * /alerts, /pre-chargebacks and their -new forms (spec 2 §2.11): the embedded
 * form when the tenant has the alerts iframe feature (not for the -new paths,
 * which exist only without it); otherwise the grid form, which needs the page
 * role PRE_CHARGEBACKS_AGGRID (others go to /not-found).
 */
export default function AlertsRoute() {
  const profile = useProfile();
  const tenant = useTenant();
  const { pathname } = useLocation();
  const title = pathname.startsWith('/pre-chargebacks') ? 'Pre-Chargebacks' : 'Alerts';
  if (tenant.flags.ALERTS_IFRAME && !pathname.endsWith('-new')) return <AlertsEmbed />;
  if (!hasResource(profile, 'PRE_CHARGEBACKS_AGGRID')) return <Navigate to="/not-found" replace />;
  return <AlertsGrid title={title} />;
}
