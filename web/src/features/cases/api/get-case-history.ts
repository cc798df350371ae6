import type { CaseHistoryList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/cases/{id}/history (start, limit). */
export function getCaseHistory(id: number, start: number, limit: number, signal?: AbortSignal) {
  return api.get<CaseHistoryList>(`cm/cases/${id}/history`, { start, limit }, signal);
}

export function getCaseHistoryQueryOptions(id: number, start: number, limit: number) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'history', id, start, limit] as const,
    queryFn: ({ signal }) => getCaseHistory(id, start, limit, signal),
  });
}

export function useCaseHistory(id: number, start: number, limit: number) {
  return useQuery(getCaseHistoryQueryOptions(id, start, limit));
}
