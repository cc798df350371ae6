import type { MidList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/mids (merchant_id, limit 999): the MIDs Select MID offers. */
export function getAlertMids(merchantId: number, signal?: AbortSignal) {
  return api.get<MidList>('cm/mids', { merchant_id: merchantId, limit: 999 }, signal);
}

export function getAlertMidsQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: [...queryRoots.alerts, 'mids', merchantId] as const,
    queryFn: ({ signal }) => getAlertMids(merchantId, signal),
  });
}

export function useAlertMids(merchantId: number) {
  return useQuery(getAlertMidsQueryOptions(merchantId));
}
