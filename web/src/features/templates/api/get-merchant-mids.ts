import type { Mid } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/mids (merchant_id, limit): the MIDs a template may be limited to. */
export function getMerchantMids(merchantId: number, signal?: AbortSignal) {
  return api.get<{ data: Mid[] }>('cm/mids', { merchant_id: merchantId, limit: 1000 }, signal);
}

export function getMerchantMidsQueryOptions(merchantId: number) {
  return {
    queryKey: ['templates', 'mids', merchantId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getMerchantMids(merchantId, signal),
  };
}

export function useMerchantMids(merchantId: number) {
  return useQuery(getMerchantMidsQueryOptions(merchantId));
}
