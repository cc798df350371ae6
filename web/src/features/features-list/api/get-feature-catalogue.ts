import type { FeatureCatalogue } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /users/features/catalogue: every role with its features and site permissions. */
export function getFeatureCatalogue(signal?: AbortSignal) {
  return api.get<FeatureCatalogue>('users/features/catalogue', undefined, signal);
}

export function useFeatureCatalogue() {
  return useQuery({
    queryKey: ['feature-catalogue'] as const,
    queryFn: ({ signal }) => getFeatureCatalogue(signal),
    staleTime: 5 * 60_000,
  });
}
