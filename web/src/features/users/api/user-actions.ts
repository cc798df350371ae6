import type { MessageResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** POST /users/users/{id}/lock or /enable (lock toggle, spec 3 §4). */
export function setUserLocked({ id, locked }: { id: number; locked: boolean }) {
  return api.post<MessageResult>(`users/users/${id}/${locked ? 'lock' : 'enable'}`);
}

export function useSetUserLocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setUserLocked,
    onSettled: () => qc.invalidateQueries({ queryKey: queryRoots.users }),
  });
}

/** POST /users/pass (username): a mailed temporary password. */
export function resetUserPassword({ username }: { username: string }) {
  return api.post<MessageResult>('users/pass', { username });
}

export function useResetUserPassword() {
  return useMutation({ mutationFn: resetUserPassword });
}
