import type { AlertHistoryItem, Pagination } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/svc/alerts/history: merchant_id, alert_id. */
export function getAlertHistory(alertId: number, merchantId: number | undefined, signal?: AbortSignal) {
  return api.get<{ data: AlertHistoryItem[]; pagination: Pagination }>(
    'cm/svc/alerts/history',
    { alert_id: alertId, merchant_id: merchantId },
    signal,
  );
}

export function getAlertHistoryQueryOptions(alertId: number, merchantId: number | undefined) {
  return {
    queryKey: ['alerts', 'history', alertId, merchantId ?? null] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getAlertHistory(alertId, merchantId, signal),
  };
}

export function useAlertHistory(alertId: number, merchantId: number | undefined) {
  return useQuery(getAlertHistoryQueryOptions(alertId, merchantId));
}
