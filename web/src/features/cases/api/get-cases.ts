import type { CaseList, CaseListQuery } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The list filters the grids send (paging, sort, search, tab, filter panel, advanced search). */
export type CaseQuery = Omit<CaseListQuery, 'headers' | 'headers[]' | 'header_labels' | 'header_labels[]'>;

/** Every case list page (the grids mark them stale when the list's filters change). */
export const casesListKey = [...queryRoots.cases, 'list'] as const;

/** GET /cm/cases. Grid-driven (the grid asks page by page through the query cache). */
export function getCases(q: CaseQuery, signal?: AbortSignal) {
  return api.get<CaseList>('cm/cases', q as Params, signal);
}

export function getCasesQueryOptions(q: CaseQuery) {
  return queryOptions({
    queryKey: [...casesListKey, q] as const,
    queryFn: ({ signal }) => getCases(q, signal),
    staleTime: 5_000,
  });
}
