import type { TokenResponse } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/auth/challenge: answers the NEW_PASSWORD_REQUIRED challenge. */
export function completeNewPassword(body: { session: string; new_password: string }): Promise<TokenResponse> {
  return api.post<TokenResponse>('users/auth/challenge', body, { anonymous: true });
}

export function useCompleteNewPassword() {
  return useMutation({ mutationFn: completeNewPassword });
}
