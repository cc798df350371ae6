import { useQuery } from '@tanstack/react-query';
import { getCases, type CaseQuery } from './get-cases';

/** GET /cm/cases with limit 0: only pagination.total (the filter panel counts). */
export async function getCaseCount(q: CaseQuery, signal?: AbortSignal): Promise<number> {
  const r = await getCases({ ...q, start: 0, limit: 0 }, signal);
  return r.pagination.total;
}

export function getCaseCountQueryOptions(q: CaseQuery) {
  return {
    queryKey: ['cases', 'count', q] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getCaseCount(q, signal),
    staleTime: 30_000,
  };
}

export function useCaseCount(q: CaseQuery, enabled = true) {
  return useQuery({ ...getCaseCountQueryOptions(q), enabled });
}
