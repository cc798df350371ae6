import type { AlertOutcomeList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/svc/alerts/outcome/dropdown. */
export function getAlertOutcomes(signal?: AbortSignal) {
  return api.get<AlertOutcomeList>('cm/svc/alerts/outcome/dropdown', undefined, signal);
}

export function getAlertOutcomesQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.alerts, 'outcomes'] as const,
    queryFn: ({ signal }) => getAlertOutcomes(signal),
    staleTime: 10 * 60_000,
  });
}

export function useAlertOutcomes() {
  return useQuery(getAlertOutcomesQueryOptions());
}
