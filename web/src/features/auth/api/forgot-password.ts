import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/auth/forgot: 204 always; the code is mailed. */
export function forgotPassword(body: { username: string }): Promise<void> {
  return api.post<void>('users/auth/forgot', body, { anonymous: true });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
