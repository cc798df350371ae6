import type { ReviewCase } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/review/{id}: the case with its review notes. */
export function getReviewCaseQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'review', id] as const,
    queryFn: ({ signal }) => api.get<ReviewCase>(`cm/review/${id}`, undefined, signal),
    enabled: id != null,
  });
}

export function useReviewCase(id: number | null) {
  return useQuery(getReviewCaseQueryOptions(id));
}
