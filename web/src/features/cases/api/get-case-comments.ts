import type { CaseCommentList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/cases/{id}/comments (start, limit): newest first. */
export function getCaseComments(id: number, limit: number, signal?: AbortSignal) {
  return api.get<CaseCommentList>(`cm/cases/${id}/comments`, { start: 0, limit }, signal);
}

export function getCaseCommentsQueryOptions(id: number, limit: number) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'comments', id, limit] as const,
    queryFn: ({ signal }) => getCaseComments(id, limit, signal),
  });
}

export function useCaseComments(id: number, limit: number) {
  return useQuery(getCaseCommentsQueryOptions(id, limit));
}
