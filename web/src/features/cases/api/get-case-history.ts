import type { CaseHistoryRow, Pagination } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/cases/{id}/history (start, limit). */
export function getCaseHistory(id: number, start: number, limit: number, signal?: AbortSignal) {
  return api.get<{ data: CaseHistoryRow[]; pagination: Pagination }>(
    `cm/cases/${id}/history`,
    { start, limit },
    signal,
  );
}

export function getCaseHistoryQueryOptions(id: number, start: number, limit: number) {
  return {
    queryKey: ['cases', 'history', id, start, limit] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getCaseHistory(id, start, limit, signal),
  };
}

export function useCaseHistory(id: number, start: number, limit: number) {
  return useQuery(getCaseHistoryQueryOptions(id, start, limit));
}
