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

/** Sends a request with the bearer token and impersonation header; refreshes once on 401. */
async function fetchWithAuth(
  method: string,
  url: string,
  opts: RequestOptions & { accept: string },
  retried = false,
): Promise<Response> {
  const headers: Record<string, string> = { accept: opts.accept };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const token = getAccessToken();
  if (token && !opts.anonymous) headers.authorization = `Bearer ${token}`;
  const imp = getImpersonation();
  if (imp && !opts.anonymous) headers[IMPERSONATE_HEADER] = imp.id;
  let res: Response;
  try {
    res = await fetch(url, {
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
  if (res.status === 401 && !opts.anonymous) {
    if (!retried && hooks.refresh && (await hooks.refresh())) return fetchWithAuth(method, url, opts, true);
    hooks.onUnauthenticated?.();
  }
  return res;
}

/** The error mapping of spec 1 §8 for an answer that is not a success (or carries data code 401). */
async function failureOf(res: Response, body: unknown): Promise<ApiError | null> {
  if (hasDataCode401(body)) {
    hooks.onForcedUpdate?.();
    return new ApiError(serverMessage(body), res.status, body);
  }
  return res.ok ? null : new ApiError(serverMessage(body, GENERIC_ERROR), res.status, body);
}

async function send(method: string, path: string, opts: RequestOptions): Promise<unknown> {
  const res = await fetchWithAuth(method, buildUrl(path, opts.params), {
    ...opts,
    accept: 'application/json',
  });
  const body = await readBody(res);
  const error = await failureOf(res, body);
  if (error) throw error;
  return body;
}

export interface Download {
  /** A file (csv or spreadsheet); null when the server answered otherwise (the export is e-mailed). */
  blob: Blob | null;
  filename: string;
}

/** GET a file; `repeated` params appear once per value (headers[]). */
async function download(
  path: string,
  params: Params,
  repeated: Record<string, string[]> = {},
): Promise<Download> {
  const url = new URL(buildUrl(path, params), window.location.origin);
  for (const [k, values] of Object.entries(repeated)) for (const v of values) url.searchParams.append(k, v);
  const res = await fetchWithAuth('GET', url.pathname + url.search, { accept: '*/*' });
  const type = res.headers.get('content-type') ?? '';
  const filename =
    /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  if (!res.ok || type.includes('json')) {
    const error = await failureOf(res, await readBody(res));
    if (error) throw error;
  }
  if (!/sheet|csv/.test(type)) return { blob: null, filename };
  return { blob: await res.blob(), filename };
}

/** GET a binary answer (a PDF the viewer draws) as bytes, with the bearer token. */
async function bytes(path: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const res = await fetchWithAuth('GET', buildUrl(path), { accept: '*/*', signal });
  if (!res.ok) {
    const error = await failureOf(res, await readBody(res));
    if (error) throw error;
  }
  return res.arrayBuffer();
}

export const api = {
  get: <T>(path: string, params?: Params, signal?: AbortSignal) =>
    send('GET', path, { params, signal }) as Promise<T>,
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body'> = {}) =>
    send('POST', path, { ...opts, body }) as Promise<T>,
  put: <T>(path: string, body?: unknown) => send('PUT', path, { body }) as Promise<T>,
  patch: <T>(path: string, body?: unknown) => send('PATCH', path, { body }) as Promise<T>,
  delete: <T>(path: string) => send('DELETE', path, {}) as Promise<T>,
  download,
  bytes,
};

/** Saves a downloaded file through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
