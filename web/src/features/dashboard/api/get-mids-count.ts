import type { CountResult } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/reports/mids-count (client_id; no date_range = every MID in scope) -> {count}. */
export function getMidsCount(clientId: number | undefined, signal?: AbortSignal) {
  return api.get<CountResult>('cm/cases/reports/mids-count', { client_id: clientId }, signal);
}

export function getMidsCountQueryOptions(clientId: number | undefined) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'mids-count', clientId] as const,
    queryFn: ({ signal }) => getMidsCount(clientId, signal),
  });
}

export function useMidsCount(clientId: number | undefined, enabled = true) {
  return useQuery({ ...getMidsCountQueryOptions(clientId), enabled });
}
