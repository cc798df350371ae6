import type { MidList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/mids (merchant_id, limit): the MIDs a template may be limited to. */
export function getMerchantMids(merchantId: number, signal?: AbortSignal) {
  return api.get<MidList>('cm/mids', { merchant_id: merchantId, limit: 1000 }, signal);
}

export function getMerchantMidsQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: [...queryRoots.templates, 'mids', merchantId] as const,
    queryFn: ({ signal }) => getMerchantMids(merchantId, signal),
  });
}

export function useMerchantMids(merchantId: number) {
  return useQuery(getMerchantMidsQueryOptions(merchantId));
}
