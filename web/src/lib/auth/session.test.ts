import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken, setAccessToken } from '../token-store';
import { retryAfterMs } from './auth-api';
import { dropTokens, refreshSession } from './session';

const tokens = { access_token: 'at-2', expires_in: 900, token_type: 'Bearer' };
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('session refresh (issue 11.2)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    setAccessToken('at-1', 900);
  });
  afterEach(() => {
    dropTokens();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits Retry-After on a 429 and retries: still signed in, never signed out', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer(429, { message: 'Too many requests.' }, { 'retry-after': '3' }))
      .mockResolvedValueOnce(answer(429, { message: 'Too many requests.' }, { 'retry-after': '2' }))
      .mockResolvedValueOnce(answer(200, tokens));
    vi.stubGlobal('fetch', fetchMock);
    let settled: boolean | undefined;
    const done = refreshSession().then((ok) => (settled = ok));
    await vi.advanceTimersByTimeAsync(2_000);
    // Still waiting out the first Retry-After: no second call yet, not signed out.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_600);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2_600);
    await done;
    expect(settled).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/users/auth/refresh');
    expect(getAccessToken()).toBe('at-2');
  });

  it('shares one refresh between concurrent callers, and a 401 still ends the session', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer(401, { message: 'Your session has expired. Please sign in again.' }));
    vi.stubGlobal('fetch', fetchMock);
    const [a, b] = await Promise.all([refreshSession(), refreshSession()]);
    expect([a, b]).toEqual([false, false]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('no refresh cookie (204, no body): signed out without an error and without a retry', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await refreshSession()).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('7')).toBe(7_000);
    expect(retryAfterMs(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(retryAfterMs(null)).toBe(5_000);
  });
});
