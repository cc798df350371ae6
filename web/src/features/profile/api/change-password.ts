import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/auth/password (current and new password; the identity provider checks the policy). */
export function changeOwnPassword(body: { current_password: string; new_password: string }): Promise<void> {
  return api.post<void>('users/auth/password', body);
}

export function useChangeOwnPassword() {
  return useMutation({ mutationFn: changeOwnPassword });
}
