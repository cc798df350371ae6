import type { TokenResponse } from '@portal/contracts';
import { getTokenExpiry, setAccessToken } from '../token-store';
import { RefreshThrottled, refreshAccessToken } from './auth-api';

/** Refresh this long before the access token expires. */
const REFRESH_AHEAD_MS = 60_000;
/** A throttled refresh waits Retry-After (at most this long per wait, plus a little jitter) and asks again. */
const MAX_THROTTLE_WAIT_MS = 60_000;
let refreshing: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Keeps a new access token in memory and schedules its silent refresh before expiry. */
export function keepTokens(tokens: TokenResponse): void {
  setAccessToken(tokens.access_token, tokens.expires_in);
  clearTimeout(timer);
  const wait = Math.max(5_000, getTokenExpiry() - Date.now() - REFRESH_AHEAD_MS);
  timer = setTimeout(() => void refreshSession(), wait);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The refresh call, retried while it is throttled: a 429 (or 503) on refresh
 * means "not now", never "signed out" (issue 11.2); only no session (null:
 * no refresh cookie), a refusal (401) or a failure ends the session.
 */
async function refreshUntilAnswered(): Promise<TokenResponse | null> {
  for (;;) {
    try {
      return await refreshAccessToken();
    } catch (e) {
      if (!(e instanceof RefreshThrottled)) throw e;
      await sleep(Math.min(e.retryAfterMs, MAX_THROTTLE_WAIT_MS) + Math.floor(Math.random() * 500));
    }
  }
}

/** One refresh at a time through the refresh cookie; true when a new token arrived. */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    refreshing = refreshUntilAnswered()
      .then((t) => {
        if (!t) return false;
        keepTokens(t);
        return true;
      })
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

export function dropTokens(): void {
  clearTimeout(timer);
  setAccessToken(null);
}
