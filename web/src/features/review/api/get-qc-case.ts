import type { QcCase } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/cases/qc/{id}, or /cm/cases/qc/next: the next QC case, claimed for the caller. */
export function getQcCase(id: number | 'next', signal?: AbortSignal): Promise<QcCase> {
  return api.get<QcCase>(`cm/cases/qc/${id}`, undefined, signal);
}

/** One QC case, or (id null) the next one: claimed on every read, so never served from the cache. */
export function getQcCaseQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'qc', id ?? 'next'] as const,
    queryFn: ({ signal }) => getQcCase(id ?? 'next', signal),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}
