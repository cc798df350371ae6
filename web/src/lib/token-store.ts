/** The access token lives in memory only (design §4); the refresh token is an httpOnly cookie. */
let accessToken: string | null = null;
let expiresAt = 0;
let lastRefresh = 0;

export function setAccessToken(token: string | null, expiresInSeconds = 0, now = Date.now()): void {
  accessToken = token;
  expiresAt = token ? now + expiresInSeconds * 1000 : 0;
  lastRefresh = token ? now : 0;
}

export function getAccessToken(): string | null {
  return accessToken;
}

export function getTokenExpiry(): number {
  return expiresAt;
}

export function getLastRefresh(): number {
  return lastRefresh;
}
