import type { MerchantList, MerchantListItem } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export type { MerchantListItem };

/** The merchants in the user's scope for the switcher: GET cm/merchants, by name (a tenant has hundreds at most). */
export async function getMerchants(signal?: AbortSignal): Promise<MerchantListItem[]> {
  const r = await api.get<MerchantList>('cm/merchants', { limit: 999, start: 0 }, signal);
  return r.data;
}

export function getMerchantsQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.merchants, 'in-scope'] as const,
    queryFn: ({ signal }) => getMerchants(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useMerchants() {
  return useQuery(getMerchantsQueryOptions());
}
