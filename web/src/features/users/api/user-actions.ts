import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /users/users/{id}/lock or /enable (lock toggle, spec 3 §4). */
export function setUserLocked({ id, locked }: { id: number; locked: boolean }) {
  return api.post<{ message: string }>(`users/users/${id}/${locked ? 'lock' : 'enable'}`);
}

export function useSetUserLocked() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setUserLocked,
    onSettled: () => qc.invalidateQueries({ queryKey: ['users'] }),
  });
}

/** POST /users/pass (username): a mailed temporary password. */
export function resetUserPassword({ username }: { username: string }) {
  return api.post<{ message: string }>('users/pass', { username });
}

export function useResetUserPassword() {
  return useMutation({ mutationFn: resetUserPassword });
}
