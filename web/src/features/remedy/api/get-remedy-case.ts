import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RemedyCase } from '../lib/remedy-form';

/** GET /cm/cases/{id}: the case as the remedy reads it (spec 2 §3 'Remedy entities', §7 'Remedy reads'). */
export function getRemedyCase(id: number, signal?: AbortSignal): Promise<RemedyCase> {
  return api.get<RemedyCase>(`cm/cases/${id}`, undefined, signal);
}

export const getRemedyCaseQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['cases', 'remedy', id],
    queryFn: ({ signal }) => getRemedyCase(id, signal),
  });

export function useRemedyCase(id: number) {
  return useQuery(getRemedyCaseQueryOptions(id));
}
