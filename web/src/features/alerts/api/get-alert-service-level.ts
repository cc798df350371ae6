import type { AlertServiceLevel } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/svc/alerts/service-level: 2 (Self) unlocks Status, Select MID, Expiration, Completed By and Actions. */
export function getAlertServiceLevel(merchantId: number | undefined, signal?: AbortSignal) {
  return api.get<AlertServiceLevel>('cm/svc/alerts/service-level', { merchant_id: merchantId }, signal);
}

export function getAlertServiceLevelQueryOptions(merchantId: number | undefined) {
  return queryOptions({
    queryKey: [...queryRoots.alerts, 'service-level', merchantId ?? null] as const,
    queryFn: ({ signal }) => getAlertServiceLevel(merchantId, signal),
  });
}

export function useAlertServiceLevel(merchantId: number | undefined) {
  return useQuery(getAlertServiceLevelQueryOptions(merchantId));
}
