import type { Pagination } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface MerchantListItem {
  id: number;
  business_name: string;
}

interface MidRow {
  merchant_id: number;
  merchant_name: string;
}

/**
 * The merchants in the user's scope, for the switcher. The case service has
 * no merchant list call yet, so this reads GET cm/mids (every MID in scope,
 * limit 1000) and keeps each merchant once; switch to the merchant list call
 * when it lands.
 */
export async function getMerchants(signal?: AbortSignal): Promise<MerchantListItem[]> {
  const r = await api.get<{ data: MidRow[]; pagination: Pagination }>(
    'cm/mids',
    { limit: 1000, start: 0 },
    signal,
  );
  const byId = new Map<number, string>();
  for (const m of r.data) byId.set(m.merchant_id, m.merchant_name);
  return [...byId]
    .map(([id, business_name]) => ({ id, business_name }))
    .sort((a, b) => a.business_name.localeCompare(b.business_name));
}

export function getMerchantsQueryOptions() {
  return queryOptions({
    queryKey: ['merchants', 'in-scope'],
    queryFn: ({ signal }) => getMerchants(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useMerchants() {
  return useQuery(getMerchantsQueryOptions());
}
