import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface SitePermissionItem {
  id: number;
  name: string;
  alias: string;
  is_active: boolean;
  isChecked: boolean;
}

/** GET /users/user/{id}/site-permissions. */
export function getSitePermissions(userId: number, signal?: AbortSignal) {
  return api
    .get<{ data: SitePermissionItem[] }>(`users/user/${userId}/site-permissions`, undefined, signal)
    .then((r) => r.data);
}

export function getSitePermissionsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['users', 'site-permissions', userId] as const,
    queryFn: ({ signal }) => getSitePermissions(userId, signal),
  });
}

export function useSitePermissions(userId: number) {
  return useQuery(getSitePermissionsQueryOptions(userId));
}

/** PUT /users/{id}/resources/{resource} with is_allowed. */
export function setSitePermission(a: { userId: number; resourceId: number; allowed: boolean }) {
  return api.put<{ message: string }>(`users/${a.userId}/resources/${a.resourceId}`, {
    is_allowed: a.allowed,
  });
}

export function useSetSitePermission() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setSitePermission,
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: ['users', 'site-permissions', v.userId] }),
  });
}
