import type { TenantBootstrap } from '@portal/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { lastDays, monthToDate, rangeParam } from '../../lib/dates';
import { getSelectedMerchant } from '../../lib/merchant-selection';
import { getChargebacksByCardTypeQueryOptions } from './api/get-chargebacks-by-card-type';
import { getChargebacksByDateRangeQueryOptions } from './api/get-chargebacks-by-date-range';
import { getChargebacksByStatusQueryOptions } from './api/get-chargebacks-by-status';
import { getChargebacksMtdQueryOptions } from './api/get-chargebacks-mtd';
import { getExpiringCountQueryOptions } from './api/get-expiring-cases';
import { getFraudPctQueryOptions } from './api/get-fraud-pct';
import { getMidsCountQueryOptions } from './api/get-mids-count';
import { getMidsTop5QueryOptions } from './api/get-mids-top5';
import { getRecoveredQueryOptions } from './api/get-recovered';
import { expiringRange } from './components/dashboard-tiles';
import { TOP5_PAGE_SIZE } from './components/mids-top5-grid';

/**
 * Starts the dashboard's calls as soon as a session exists (in parallel with
 * whoami and the chunk downloads); the components then find them in the
 * query cache under the same keys. The users tile needs the profile and waits.
 */
export function prefetchDashboard(queryClient: QueryClient, tenant: TenantBootstrap): void {
  const q = queryClient;
  const clientId = getSelectedMerchant()?.id;
  const tiles = new Set(tenant.dashboard.tiles);
  const mtd = rangeParam(monthToDate());
  const last90 = rangeParam(lastDays(90));
  if (tiles.has('chargebacks_mtd')) void q.prefetchQuery(getChargebacksMtdQueryOptions(clientId));
  if (tiles.has('fraud_pct')) void q.prefetchQuery(getFraudPctQueryOptions(clientId, mtd));
  if (tiles.has('expiring_72h'))
    void q.prefetchQuery(getExpiringCountQueryOptions(clientId, expiringRange()));
  if (tiles.has('mids')) void q.prefetchQuery(getMidsCountQueryOptions(clientId));
  if (tiles.has('recovered')) void q.prefetchQuery(getRecoveredQueryOptions(clientId));
  void q.prefetchQuery(getChargebacksByDateRangeQueryOptions(clientId, last90));
  if (tenant.dashboard.pie_chart === 'card_type')
    void q.prefetchQuery(getChargebacksByCardTypeQueryOptions(clientId, mtd));
  else void q.prefetchQuery(getChargebacksByStatusQueryOptions(clientId, mtd));
  void q.prefetchQuery(
    getMidsTop5QueryOptions({ clientId, dateRange: last90, start: 0, limit: TOP5_PAGE_SIZE }),
  );
}
