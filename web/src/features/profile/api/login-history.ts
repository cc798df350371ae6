import type { LoginHistory } from '@portal/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface LoginHistoryQuery {
  userId: number;
  unique: boolean;
  start: number;
  limit: number;
}

/** Every page of the login history: locking or unlocking an IP changes them. */
const loginHistoryKey = [...queryRoots.profile, 'login-history'] as const;

/** GET /users/users/{id}/login-history (is_unique, limit, start). */
export function getLoginHistory(q: LoginHistoryQuery, signal?: AbortSignal) {
  return api.get<LoginHistory>(
    `users/users/${q.userId}/login-history`,
    { is_unique: q.unique, limit: q.limit, start: q.start },
    signal,
  );
}

export function getLoginHistoryQueryOptions(q: LoginHistoryQuery) {
  return queryOptions({
    queryKey: [...loginHistoryKey, q] as const,
    queryFn: ({ signal }) => getLoginHistory(q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useLoginHistory(q: LoginHistoryQuery) {
  return useQuery(getLoginHistoryQueryOptions(q));
}

/** Lock an IP: POST /users/blockip (ip, is_allowed false); unlock: DELETE /users/blockip/{blockId}. */
export function setIpLocked(a: { ip: string; lock: boolean; blockId: number | null }) {
  // The service answers {id} (an inline schema of services/user account/login-history-routes.ts).
  if (a.lock) return api.post<{ id: number }>('users/blockip', { ip: a.ip, is_allowed: false });
  return api.delete<null>(`users/blockip/${a.blockId}`);
}

export function useSetIpLocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setIpLocked,
    onSettled: () => qc.invalidateQueries({ queryKey: loginHistoryKey }),
  });
}
