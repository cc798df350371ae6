import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setApiHooks } from './api-client';
import {
  ApiError,
  GENERIC_ERROR,
  hasDataCode401,
  queryErrorMessage,
  signInErrorMessage,
  UNKNOWN_ERROR,
} from './errors';
import { startImpersonation, clearImpersonation } from './impersonation';
import { setAccessToken } from './token-store';

describe('error mapping (spec 1 §8)', () => {
  it('strips the PreAuthentication prefix from sign-in failures', () => {
    expect(
      signInErrorMessage(new ApiError('PreAuthentication failed with error Your account is locked.', 401)),
    ).toBe('Your account is locked.');
    expect(signInErrorMessage(new ApiError('Incorrect username or password.', 401))).toBe(
      'Incorrect username or password.',
    );
    expect(signInErrorMessage(new Error('x'))).toBe(GENERIC_ERROR);
    expect(signInErrorMessage(new ApiError(UNKNOWN_ERROR, 0))).toBe(GENERIC_ERROR);
  });
  it('detects data code 401 at the top level or in data', () => {
    expect(hasDataCode401({ code: 401, message: 'x' })).toBe(true);
    expect(hasDataCode401({ data: { code: 401 } })).toBe(true);
    expect(hasDataCode401({ statusCode: 401 })).toBe(false);
    expect(hasDataCode401('<html>')).toBe(false);
  });
  it('generic query failure: status plus unable to obtain data', () => {
    expect(queryErrorMessage(new ApiError('x', 503))).toBe('503 unable to obtain data');
  });
});

describe('api client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setApiHooks({});
    setAccessToken(null);
    clearImpersonation();
  });
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('sends the bearer token and the impersonation header', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    setAccessToken('tok', 300);
    startImpersonation({ id: 42, name: 'Mia Admin' });
    await api.get('cm/cases', { limit: 0, search: undefined });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/cm/cases?limit=0');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect((init.headers as Record<string, string>)['x-impersonate-user-id']).toBe('42');
  });
  it('rejects with the server message, else the generic text; network failure gives the unknown-error text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(400, { statusCode: 400, error: 'Bad Request', message: 'date_range is invalid' }),
      ),
    );
    await expect(api.get('x')).rejects.toMatchObject({ message: 'date_range is invalid', status: 400 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 500 })),
    );
    await expect(api.get('x')).rejects.toMatchObject({ message: GENERIC_ERROR });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('network'))),
    );
    await expect(api.get('x')).rejects.toMatchObject({ message: UNKNOWN_ERROR });
  });
  it('a response with code 401 triggers the forced update; a 401 retries once after a refresh', async () => {
    const onForcedUpdate = vi.fn();
    const refresh = vi.fn(async () => true);
    setApiHooks({ onForcedUpdate, refresh });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(403, { statusCode: 403, error: 'Forbidden', code: 401, message: 'Password update required' }),
      ),
    );
    await expect(api.post('users/whoami')).rejects.toBeInstanceOf(ApiError);
    expect(onForcedUpdate).toHaveBeenCalledOnce();
    const f = vi
      .fn()
      .mockResolvedValueOnce(json(401, { message: 'expired' }))
      .mockResolvedValueOnce(json(200, { id: 1 }));
    vi.stubGlobal('fetch', f);
    await expect(api.post('users/whoami')).resolves.toEqual({ id: 1 });
    expect(refresh).toHaveBeenCalledOnce();
  });
});
