import type { ConnectionList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** A merchant's processor connections (part of the merchant's settings, so under that area's root). */
export const connectionsKey = (merchantId: number) =>
  [...queryRoots.merchantAdmin, 'connections', merchantId] as const;

/** GET /cm/merchants/{id}/connections; polled while a backfill runs. */
export function getConnectionsQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: connectionsKey(merchantId),
    queryFn: ({ signal }) =>
      api.get<ConnectionList>(`cm/merchants/${merchantId}/connections`, undefined, signal),
    refetchInterval: (query) =>
      query.state.data?.data.some(
        (c) => c.backfill && (c.backfill.status === 'queued' || c.backfill.status === 'running'),
      )
        ? 2000
        : false,
  });
}

/** `enabled` false: the caller may not see connections, so nothing is asked. */
export function useConnections(merchantId: number, enabled = true) {
  return useQuery({ ...getConnectionsQueryOptions(merchantId), enabled });
}
