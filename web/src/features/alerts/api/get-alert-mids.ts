import type { Mid } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/mids (merchant_id, limit 999): the MIDs Select MID offers. */
export function getAlertMids(merchantId: number, signal?: AbortSignal) {
  return api.get<{ data: Mid[] }>('cm/mids', { merchant_id: merchantId, limit: 999 }, signal);
}

export function getAlertMidsQueryOptions(merchantId: number) {
  return {
    queryKey: ['alerts', 'mids', merchantId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getAlertMids(merchantId, signal),
  };
}

export function useAlertMids(merchantId: number) {
  return useQuery(getAlertMidsQueryOptions(merchantId));
}
