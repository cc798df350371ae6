import type { Pagination } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/svc/descriptors: merchant_id, search (the descriptor type-ahead; limit 10). */
export function getAlertDescriptors(merchantId: number | undefined, search: string, signal?: AbortSignal) {
  return api.get<{ data: { id: number; descriptor: string }[]; pagination: Pagination }>(
    'cm/svc/descriptors',
    { merchant_id: merchantId, search, limit: 10 },
    signal,
  );
}

export function getAlertDescriptorsQueryOptions(merchantId: number | undefined, search: string) {
  return {
    queryKey: ['alerts', 'descriptors', merchantId ?? null, search] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getAlertDescriptors(merchantId, search, signal),
  };
}

export function useAlertDescriptors(merchantId: number | undefined, search: string) {
  return useQuery(getAlertDescriptorsQueryOptions(merchantId, search));
}
