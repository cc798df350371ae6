import type { TokenResponse, UserProfile } from '@portal/contracts';
import { api } from '../api-client';
import { ApiError, WHOAMI_HTML_ERROR } from '../errors';

/** The session calls the auth layer itself needs (the sign-in forms' calls live in features/auth/api). */
export async function refreshAccessToken(): Promise<TokenResponse> {
  // Never leave the start screen waiting on a hung call: 10 s, then signed out.
  return api.post<TokenResponse>('users/auth/refresh', undefined, {
    anonymous: true,
    signal: AbortSignal.timeout(10_000),
  });
}

export async function signOutCall(): Promise<void> {
  await api.post<void>('users/auth/signout', undefined, { anonymous: true });
}

export const whoamiQueryKey = ['whoami'] as const;

/** POST users/whoami: the signed-in user (spec 3.1). An HTML reply means the login failed. */
export async function whoami(): Promise<UserProfile> {
  const body = await api.post<unknown>('users/whoami');
  if (typeof body === 'string' || !body || typeof body !== 'object')
    throw new ApiError(WHOAMI_HTML_ERROR, 200, body);
  return body as UserProfile;
}
