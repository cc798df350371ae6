import type { MessageResult, SitePermissionList } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/user/{id}/site-permissions. */
export function getSitePermissions(userId: number, signal?: AbortSignal) {
  return api
    .get<SitePermissionList>(`users/user/${userId}/site-permissions`, undefined, signal)
    .then((r) => r.data);
}

export function getSitePermissionsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'site-permissions', userId] as const,
    queryFn: ({ signal }) => getSitePermissions(userId, signal),
  });
}

export function useSitePermissions(userId: number) {
  return useQuery(getSitePermissionsQueryOptions(userId));
}

/** PUT /users/{id}/resources/{resource} with is_allowed. */
export function setSitePermission(a: { userId: number; resourceId: number; allowed: boolean }) {
  return api.put<MessageResult>(`users/${a.userId}/resources/${a.resourceId}`, {
    is_allowed: a.allowed,
  });
}

export function useSetSitePermission() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setSitePermission,
    onSettled: (_d, _e, v) =>
      qc.invalidateQueries({ queryKey: getSitePermissionsQueryOptions(v.userId).queryKey }),
  });
}
