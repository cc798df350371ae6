import type { CaseList, CaseListQuery } from '@portal/contracts';
import { api, type Params } from '../../../lib/api-client';

/** The list filters the grids send (paging, sort, search, tab, filter panel, advanced search). */
export type CaseQuery = Omit<CaseListQuery, 'headers' | 'headers[]' | 'header_labels' | 'header_labels[]'>;

/** GET /cm/cases. Grid-driven (the grid asks page by page through the query cache). */
export function getCases(q: CaseQuery, signal?: AbortSignal) {
  return api.get<CaseList>('cm/cases', q as Params, signal);
}

export function getCasesQueryOptions(q: CaseQuery) {
  return {
    queryKey: ['cases', 'list', q] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getCases(q, signal),
    staleTime: 5_000,
  };
}
