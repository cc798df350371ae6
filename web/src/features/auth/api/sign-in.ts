import type { SignInBody, SignInResponse } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST users/auth/signin: tokens, or the NEW_PASSWORD_REQUIRED challenge. */
export function signIn(body: SignInBody): Promise<SignInResponse> {
  return api.post<SignInResponse>('users/auth/signin', body, { anonymous: true });
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
