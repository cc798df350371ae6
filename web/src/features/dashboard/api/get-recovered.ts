import type { RecoveredTile } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/dashboard/recovered (client_id): net recovered this month and last, in the reporting currency. */
export function getRecovered(clientId: number | undefined, signal?: AbortSignal) {
  return api.get<RecoveredTile>('cm/cases/dashboard/recovered', { client_id: clientId }, signal);
}

export function getRecoveredQueryOptions(clientId: number | undefined) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'recovered', clientId] as const,
    queryFn: ({ signal }) => getRecovered(clientId, signal),
  });
}

export function useRecovered(clientId: number | undefined, enabled = true) {
  return useQuery({ ...getRecoveredQueryOptions(clientId), enabled });
}
