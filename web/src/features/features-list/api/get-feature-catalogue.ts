import type { FeatureCatalogue } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/features/catalogue: every role with its features and site permissions. */
export function getFeatureCatalogue(signal?: AbortSignal) {
  return api.get<FeatureCatalogue>('users/features/catalogue', undefined, signal);
}

export function getFeatureCatalogueQueryOptions() {
  return queryOptions({
    queryKey: queryRoots.featureCatalogue,
    queryFn: ({ signal }) => getFeatureCatalogue(signal),
    staleTime: 5 * 60_000,
  });
}

export function useFeatureCatalogue() {
  return useQuery(getFeatureCatalogueQueryOptions());
}
