import type { CaseCommentList } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/cases/{id}/comments (start, limit): newest first. */
export function getCaseComments(id: number, limit: number, signal?: AbortSignal) {
  return api.get<CaseCommentList>(`cm/cases/${id}/comments`, { start: 0, limit }, signal);
}

export function getCaseCommentsQueryOptions(id: number, limit: number) {
  return {
    queryKey: ['cases', 'comments', id, limit] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getCaseComments(id, limit, signal),
  };
}

export function useCaseComments(id: number, limit: number) {
  return useQuery(getCaseCommentsQueryOptions(id, limit));
}
