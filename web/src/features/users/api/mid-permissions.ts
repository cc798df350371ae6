import type { MessageResult, MidList, MidPermissionView } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/mids/permissions/{userId}. */
export function getMidPermissions(userId: number, signal?: AbortSignal) {
  return api.get<MidPermissionView>(`cm/mids/permissions/${userId}`, undefined, signal);
}

export function getMidPermissionsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'mid-permissions', userId] as const,
    queryFn: ({ signal }) => getMidPermissions(userId, signal),
  });
}

export function useMidPermissions(userId: number) {
  return useQuery(getMidPermissionsQueryOptions(userId));
}

/** The active MIDs (status id 2) of a merchant's subtree, searched: GET /cm/mids. */
export function searchActiveMids(merchantId: number, search: string, signal?: AbortSignal) {
  return api
    .get<MidList>('cm/mids', { merchant_id: merchantId, status_id: 2, search, limit: 50 }, signal)
    .then((r) => r.data);
}

export function getActiveMidsQueryOptions(merchantId: number, search: string) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'active-mids', merchantId, search] as const,
    queryFn: ({ signal }) => searchActiveMids(merchantId, search, signal),
  });
}

export function useActiveMids(merchantId: number, search: string) {
  return useQuery(getActiveMidsQueryOptions(merchantId, search));
}

/** PUT /cm/mids/permissions/{userId} with the allowed MIDs (none = every MID). */
export function saveMidPermissions(a: { userId: number; mids: string[]; excludeMids: string[] }) {
  return api.put<MessageResult>(`cm/mids/permissions/${a.userId}`, {
    mids: a.mids,
    exclude_mids: a.excludeMids,
  });
}

export function useSaveMidPermissions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveMidPermissions,
    onSettled: () => qc.invalidateQueries({ queryKey: queryRoots.users }),
  });
}
