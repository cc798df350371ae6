import type { MessageResult, NotificationSetting } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/user/{id}/email-notification: `{data}` (an inline schema of services/user account/notification-routes.ts). */
export function getNotifications(userId: number, signal?: AbortSignal) {
  return api
    .get<{ data: NotificationSetting[] }>(`users/user/${userId}/email-notification`, undefined, signal)
    .then((r) => r.data);
}

export function getNotificationsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...queryRoots.profile, 'notifications', userId] as const,
    queryFn: ({ signal }) => getNotifications(userId, signal),
  });
}

export function useNotifications(userId: number) {
  return useQuery(getNotificationsQueryOptions(userId));
}

/** PUT /users/user/{id}/email-notification/{settingId} (user id, setting id, checked). */
export function setNotification(a: { userId: number; settingId: number; enabled: boolean }) {
  return api.put<MessageResult>(`users/user/${a.userId}/email-notification/${a.settingId}`, {
    is_enabled: a.enabled,
  });
}

export function useSetNotification() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setNotification,
    onSettled: (_d, _e, v) =>
      qc.invalidateQueries({ queryKey: getNotificationsQueryOptions(v.userId).queryKey }),
  });
}
