import { MERCHANT_TREE_PAGE, type MerchantTree } from '@portal/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/merchants/list?parent_id: one page (20) of a merchant's children, in name order. */
export const getTreeChildren = (parentId: number, start: number, signal?: AbortSignal) =>
  api.get<MerchantTree>(
    'cm/merchants/list',
    { parent_id: parentId, start, limit: MERCHANT_TREE_PAGE, sort_order: 'asc', sort_by: 'business_name' },
    signal,
  );

/**
 * The children of an opened tree node, read when it opens and page by page on "Show more".
 * Under the 'merchant-tree' key, so every merchant or MID write refreshes the open nodes too.
 */
export function getTreeChildrenQueryOptions(parentId: number) {
  return infiniteQueryOptions({
    queryKey: [...queryRoots.merchantTree, 'children', parentId] as const,
    queryFn: ({ pageParam, signal }) => getTreeChildren(parentId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.pagination.start + last.pagination.limit;
      return next < last.pagination.total ? next : undefined;
    },
    // Reopening a node shows what was read (writes invalidate the 'merchant-tree' key).
    staleTime: 5 * 60_000,
  });
}

export function useTreeChildren(parentId: number, enabled: boolean) {
  return useInfiniteQuery({ ...getTreeChildrenQueryOptions(parentId), enabled });
}
