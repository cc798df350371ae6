import type { CaseDetail } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/cases/{id}. */
export function getCase(id: number, signal?: AbortSignal) {
  return api.get<CaseDetail>(`cm/cases/${id}`, undefined, signal);
}

export function getCaseQueryOptions(id: number) {
  return {
    queryKey: ['cases', 'detail', id] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getCase(id, signal),
  };
}

export function useCase(id: number | null) {
  return useQuery({ ...getCaseQueryOptions(id ?? 0), enabled: id != null });
}
