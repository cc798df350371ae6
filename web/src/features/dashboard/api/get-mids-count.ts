import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET cm/cases/reports/mids-count (client_id; no date_range = every MID in scope) -> {count}. */
export function getMidsCount(clientId: number | undefined, signal?: AbortSignal) {
  return api.get<{ count: number }>('cm/cases/reports/mids-count', { client_id: clientId }, signal);
}

export function getMidsCountQueryOptions(clientId: number | undefined) {
  return queryOptions({
    queryKey: ['dashboard', 'mids-count', clientId],
    queryFn: ({ signal }) => getMidsCount(clientId, signal),
  });
}

export function useMidsCount(clientId: number | undefined, enabled = true) {
  return useQuery({ ...getMidsCountQueryOptions(clientId), enabled });
}
