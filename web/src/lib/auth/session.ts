import type { TokenResponse } from '@portal/contracts';
import { getTokenExpiry, setAccessToken } from '../token-store';
import { refreshAccessToken } from './auth-api';

/** Refresh this long before the access token expires. */
const REFRESH_AHEAD_MS = 60_000;
let refreshing: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Keeps a new access token in memory and schedules its silent refresh before expiry. */
export function keepTokens(tokens: TokenResponse): void {
  setAccessToken(tokens.access_token, tokens.expires_in);
  clearTimeout(timer);
  const wait = Math.max(5_000, getTokenExpiry() - Date.now() - REFRESH_AHEAD_MS);
  timer = setTimeout(() => void refreshSession(), wait);
}

/** One refresh at a time through the refresh cookie; true when a new token arrived. */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    refreshing = refreshAccessToken()
      .then((t) => {
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
