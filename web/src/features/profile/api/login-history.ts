import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface LoginEventItem {
  id: number;
  ip: string;
  timestamp: string;
  is_blocked: boolean;
  blocked_id: number | null;
}

export interface LoginHistoryQuery {
  userId: number;
  unique: boolean;
  start: number;
  limit: number;
}

/** GET /users/users/{id}/login-history (is_unique, limit, start). */
export function getLoginHistory(q: LoginHistoryQuery, signal?: AbortSignal) {
  return api.get<{ data: LoginEventItem[]; pagination: { total: number } }>(
    `users/users/${q.userId}/login-history`,
    { is_unique: q.unique, limit: q.limit, start: q.start },
    signal,
  );
}

export function getLoginHistoryQueryOptions(q: LoginHistoryQuery) {
  return queryOptions({
    queryKey: ['profile', 'login-history', q] as const,
    queryFn: ({ signal }) => getLoginHistory(q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useLoginHistory(q: LoginHistoryQuery) {
  return useQuery(getLoginHistoryQueryOptions(q));
}

/** Lock an IP: POST /users/blockip (ip, is_allowed false); unlock: DELETE /users/blockip/{blockId}. */
export function setIpLocked(a: { ip: string; lock: boolean; blockId: number | null }) {
  if (a.lock) return api.post<{ id: number }>('users/blockip', { ip: a.ip, is_allowed: false });
  return api.delete<null>(`users/blockip/${a.blockId}`);
}

export function useSetIpLocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setIpLocked,
    onSettled: () => qc.invalidateQueries({ queryKey: ['profile', 'login-history'] }),
  });
}
