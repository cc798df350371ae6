import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/auth/forgot/confirm: sets the new password with the mailed code. */
export function confirmForgotPassword(body: {
  username: string;
  code: string;
  new_password: string;
}): Promise<void> {
  return api.post<void>('users/auth/forgot/confirm', body, { anonymous: true });
}

export function useConfirmForgotPassword() {
  return useMutation({ mutationFn: confirmForgotPassword });
}
