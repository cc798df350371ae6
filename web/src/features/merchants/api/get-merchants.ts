import type { Pagination } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface MerchantListItem {
  id: number;
  business_name: string;
  parent_id?: number | null;
}

/** GET cm/merchants: the merchants in the user's scope (for the switcher). */
export function getMerchants(params: { search?: string; limit?: number }, signal?: AbortSignal) {
  return api.get<{ data: MerchantListItem[]; pagination: Pagination }>(
    'cm/merchants',
    {
      limit: params.limit ?? 100,
      start: 0,
      sort_by: 'business_name',
      sort_order: 'asc',
      search: params.search,
    },
    signal,
  );
}

export function getMerchantsQueryOptions(search = '') {
  return queryOptions({
    queryKey: ['merchants', 'list', search],
    queryFn: ({ signal }) => getMerchants({ search }, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useMerchants(search = '') {
  return useQuery(getMerchantsQueryOptions(search));
}
