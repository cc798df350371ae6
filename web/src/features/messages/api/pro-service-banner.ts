import type { ProServiceBanner } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/pro-service/banner?page= (spec 3 §7). */
export function getProServiceBanner(page: string, signal?: AbortSignal) {
  return api.get<ProServiceBanner>('users/pro-service/banner', { page }, signal);
}

export function getProServiceBannerQueryOptions(page: string) {
  return queryOptions({
    queryKey: [...queryRoots.messages, 'pro-service-banner', page] as const,
    queryFn: ({ signal }) => getProServiceBanner(page, signal),
  });
}

export function useProServiceBanner(page: string) {
  return useQuery({ ...getProServiceBannerQueryOptions(page), staleTime: 5 * 60_000, retry: false });
}

/** POST /users/pro-service/banner/close {page}: hidden at once; a failed call only means it may come back. */
export function useCloseProServiceBanner(page: string) {
  const client = useQueryClient();
  const { queryKey } = getProServiceBannerQueryOptions(page);
  return useMutation({
    mutationFn: () => api.post('users/pro-service/banner/close', { page }),
    onMutate: () => {
      client.setQueryData(queryKey, (b) => (b ? { ...b, show: false } : b));
    },
  });
}
