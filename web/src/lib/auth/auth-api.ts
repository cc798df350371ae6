import { REFRESH_NO_SESSION, type TokenResponse, type UserProfile } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, buildUrl } from '../api-client';
import { ApiError, GENERIC_ERROR, serverMessage, UNKNOWN_ERROR, WHOAMI_HTML_ERROR } from '../errors';
import { queryRoots } from '../query-keys';

/**
 * The refresh call was throttled (429) or the service is briefly unavailable
 * (503): the session is fine, wait `retryAfterMs` and ask again. Never a
 * reason to sign out (issue 11.2).
 */
export class RefreshThrottled extends Error {
  constructor(readonly retryAfterMs: number) {
    super('Session refresh throttled');
    this.name = 'RefreshThrottled';
  }
}

/** Retry-After as seconds or an HTTP date; 5 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return 5_000;
}

/**
 * The session calls the auth layer itself needs (the sign-in forms' calls live in features/auth/api).
 * Refresh goes through fetch directly: the answer's Retry-After header matters. Null when the browser holds
 * no refresh cookie (REFRESH_NO_SESSION: nobody signed in yet, answered without an error status so the
 * sign-in page's first load logs nothing); a cookie that is refused still throws (401).
 */
export async function refreshAccessToken(): Promise<TokenResponse | null> {
  let res: Response;
  try {
    // Never leave the start screen waiting on a hung call: 10 s, then signed out.
    res = await fetch(buildUrl('users/auth/refresh'), {
      method: 'POST',
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError' || (e as Error).name === 'TimeoutError') throw e;
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  if (res.status === 429 || res.status === 503)
    throw new RefreshThrottled(retryAfterMs(res.headers.get('retry-after')));
  if (res.status === REFRESH_NO_SESSION) return null;
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  if (!res.ok) throw new ApiError(serverMessage(body, GENERIC_ERROR), res.status, body);
  return body as TokenResponse;
}

export async function signOutCall(): Promise<void> {
  await api.post<void>('users/auth/signout', undefined, { anonymous: true });
}

export const whoamiQueryKey = queryRoots.whoami;

/** POST users/whoami: the signed-in user (spec 3.1). An HTML reply means the login failed. */
export async function whoami(): Promise<UserProfile> {
  const body = await api.post<unknown>('users/whoami');
  if (typeof body === 'string' || !body || typeof body !== 'object')
    throw new ApiError(WHOAMI_HTML_ERROR, 200, body);
  return body as UserProfile;
}

/** The signed-in user, kept until a sign-out clears the cache or refreshProfile asks again. */
export function getWhoamiQueryOptions() {
  return queryOptions({
    queryKey: whoamiQueryKey,
    queryFn: whoami,
    staleTime: Infinity,
    retry: false,
  });
}
