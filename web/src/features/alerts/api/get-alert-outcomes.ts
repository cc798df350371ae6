import type { AlertOutcome } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/svc/alerts/outcome/dropdown. */
export function getAlertOutcomes(signal?: AbortSignal) {
  return api.get<{ data: AlertOutcome[] }>('cm/svc/alerts/outcome/dropdown', undefined, signal);
}

export function getAlertOutcomesQueryOptions() {
  return {
    queryKey: ['alerts', 'outcomes'] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getAlertOutcomes(signal),
    staleTime: 10 * 60_000,
  };
}

export function useAlertOutcomes() {
  return useQuery(getAlertOutcomesQueryOptions());
}
