import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface NotificationItem {
  id: number;
  name: string;
  alias: string;
  is_enabled: boolean;
}

/** GET /users/user/{id}/email-notification. */
export function getNotifications(userId: number, signal?: AbortSignal) {
  return api
    .get<{ data: NotificationItem[] }>(`users/user/${userId}/email-notification`, undefined, signal)
    .then((r) => r.data);
}

export function getNotificationsQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['profile', 'notifications', userId] as const,
    queryFn: ({ signal }) => getNotifications(userId, signal),
  });
}

export function useNotifications(userId: number) {
  return useQuery(getNotificationsQueryOptions(userId));
}

/** PUT /users/user/{id}/email-notification/{settingId} (user id, setting id, checked). */
export function setNotification(a: { userId: number; settingId: number; enabled: boolean }) {
  return api.put<{ message: string }>(`users/user/${a.userId}/email-notification/${a.settingId}`, {
    is_enabled: a.enabled,
  });
}

export function useSetNotification() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setNotification,
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: ['profile', 'notifications', v.userId] }),
  });
}
