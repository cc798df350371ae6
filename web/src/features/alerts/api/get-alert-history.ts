import type { AlertHistoryList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Every alert's history: marking an outcome or completing an alert adds to it. */
export const alertHistoryKey = [...queryRoots.alerts, 'history'] as const;

/** GET /cm/svc/alerts/history: merchant_id, alert_id. */
export function getAlertHistory(alertId: number, merchantId: number | undefined, signal?: AbortSignal) {
  return api.get<AlertHistoryList>(
    'cm/svc/alerts/history',
    { alert_id: alertId, merchant_id: merchantId },
    signal,
  );
}

export function getAlertHistoryQueryOptions(alertId: number, merchantId: number | undefined) {
  return queryOptions({
    queryKey: [...alertHistoryKey, alertId, merchantId ?? null] as const,
    queryFn: ({ signal }) => getAlertHistory(alertId, merchantId, signal),
  });
}

export function useAlertHistory(alertId: number, merchantId: number | undefined) {
  return useQuery(getAlertHistoryQueryOptions(alertId, merchantId));
}
