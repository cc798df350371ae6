import { IMPERSONATE_HEADER } from '@portal/contracts';
import { ApiError, GENERIC_ERROR, hasDataCode401, serverMessage, UNKNOWN_ERROR } from './errors';
import { getImpersonation } from './impersonation';
import { getAccessToken } from './token-store';

/**
 * The one API client (STYLE: bulletproof-react lib/api-client): bearer token,
 * impersonation header, and the error mapping of spec 1 §8.
 */
export type Params = Record<string, string | number | boolean | null | undefined>;

export interface ApiHooks {
  /** Any response with data code 401: the forced password update form. */
  onForcedUpdate?: () => void;
  /** A 401 that a refresh could not cure. */
  onUnauthenticated?: () => void;
  /** Tries to get a new access token (refresh cookie); true on success. */
  refresh?: () => Promise<boolean>;
}

let hooks: ApiHooks = {};
export function setApiHooks(h: ApiHooks): void {
  hooks = h;
}

export function buildUrl(path: string, params?: Params): string {
  const p = path.startsWith('/api/') ? path : `/api/${path.replace(/^\//, '')}`;
  if (!params) return p;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${p}?${s}` : p;
}

export interface RequestOptions {
  params?: Params;
  body?: unknown;
  /** Public auth calls: no bearer token, no refresh on 401. */
  anonymous?: boolean;
  signal?: AbortSignal;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function send(method: string, path: string, opts: RequestOptions, retried: boolean): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const token = getAccessToken();
  if (token && !opts.anonymous) headers.authorization = `Bearer ${token}`;
  const imp = getImpersonation();
  if (imp && !opts.anonymous) headers[IMPERSONATE_HEADER] = imp.id;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.params), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  const body = await readBody(res);
  if (hasDataCode401(body)) {
    hooks.onForcedUpdate?.();
    throw new ApiError(serverMessage(body), res.status, body);
  }
  if (res.status === 401 && !opts.anonymous) {
    if (!retried && hooks.refresh && (await hooks.refresh())) return send(method, path, opts, true);
    hooks.onUnauthenticated?.();
  }
  if (!res.ok) throw new ApiError(serverMessage(body, GENERIC_ERROR), res.status, body);
  return body;
}

export const api = {
  get: <T>(path: string, params?: Params, signal?: AbortSignal) =>
    send('GET', path, { params, signal }, false) as Promise<T>,
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body'> = {}) =>
    send('POST', path, { ...opts, body }, false) as Promise<T>,
  put: <T>(path: string, body?: unknown) => send('PUT', path, { body }, false) as Promise<T>,
  delete: <T>(path: string) => send('DELETE', path, {}, false) as Promise<T>,
};
