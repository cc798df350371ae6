import type { AdvancedFilterField } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /config/cfg/cases_advanced_filters (answer attr.filters). */
export async function getAdvancedFilters(signal?: AbortSignal): Promise<AdvancedFilterField[]> {
  const r = await api.get<{ attr: { filters: AdvancedFilterField[] } }>(
    'config/cfg/cases_advanced_filters',
    undefined,
    signal,
  );
  return r.attr.filters;
}

export function getAdvancedFiltersQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'advanced-filters'] as const,
    queryFn: ({ signal }) => getAdvancedFilters(signal),
    staleTime: 10 * 60_000,
  });
}

export function useAdvancedFilters() {
  return useQuery(getAdvancedFiltersQueryOptions());
}
