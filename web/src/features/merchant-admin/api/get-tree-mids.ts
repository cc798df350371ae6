import type { MerchantMids } from '@portal/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** MIDs of an opened tree node per request (the MIDs grid's page size). */
const TREE_MIDS_PAGE = 50;

/** GET /cm/merchants/{id}/mids: one page of a merchant's own MIDs, in MID order. */
export const getTreeMids = (merchantId: number, start: number, signal?: AbortSignal) =>
  api.get<MerchantMids>(`cm/merchants/${merchantId}/mids`, { start, limit: TREE_MIDS_PAGE }, signal);

/** The MIDs of an opened tree node, read when it opens and page by page on "Show more". */
export function getTreeMidsQueryOptions(merchantId: number) {
  return infiniteQueryOptions({
    queryKey: [...queryRoots.merchantTree, 'mids', merchantId] as const,
    queryFn: ({ pageParam, signal }) => getTreeMids(merchantId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.pagination.start + last.pagination.limit;
      return next < last.pagination.total ? next : undefined;
    },
    // Reopening a node shows what was read (writes invalidate the 'merchant-tree' key).
    staleTime: 5 * 60_000,
  });
}

export function useTreeMids(merchantId: number, enabled: boolean) {
  return useInfiniteQuery({ ...getTreeMidsQueryOptions(merchantId), enabled });
}
