import type { AlertDescriptorList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/svc/descriptors: merchant_id, search (the descriptor type-ahead; limit 10). */
export function getAlertDescriptors(merchantId: number | undefined, search: string, signal?: AbortSignal) {
  return api.get<AlertDescriptorList>(
    'cm/svc/descriptors',
    { merchant_id: merchantId, search, limit: 10 },
    signal,
  );
}

export function getAlertDescriptorsQueryOptions(merchantId: number | undefined, search: string) {
  return queryOptions({
    queryKey: [...queryRoots.alerts, 'descriptors', merchantId ?? null, search] as const,
    queryFn: ({ signal }) => getAlertDescriptors(merchantId, search, signal),
  });
}

export function useAlertDescriptors(merchantId: number | undefined, search: string) {
  return useQuery(getAlertDescriptorsQueryOptions(merchantId, search));
}
