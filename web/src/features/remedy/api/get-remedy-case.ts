import type { CaseDetail } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/cases/{id}: the case the remedy reads (spec 2 §3 'Remedy entities', §7 'Remedy reads'). */
export function getRemedyCase(id: number, signal?: AbortSignal): Promise<CaseDetail> {
  return api.get<CaseDetail>(`cm/cases/${id}`, undefined, signal);
}

export const getRemedyCaseQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...queryRoots.cases, 'remedy', id] as const,
    queryFn: ({ signal }) => getRemedyCase(id, signal),
  });

export function useRemedyCase(id: number) {
  return useQuery(getRemedyCaseQueryOptions(id));
}
