import { IMPERSONATE_HEADER } from '@portal/contracts';
import { buildUrl, type Params } from '../../../lib/api-client';
import { ApiError, GENERIC_ERROR, serverMessage, UNKNOWN_ERROR } from '../../../lib/errors';
import { getImpersonation } from '../../../lib/impersonation';
import { getAccessToken } from '../../../lib/token-store';

/**
 * The two request kinds lib/api-client does not offer yet (PATCH and file
 * downloads), with the same bearer token, impersonation header and error
 * mapping. To fold into lib/api-client once its owner adds them.
 */
function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = { accept: json ? 'application/json' : '*/*' };
  if (json) h['content-type'] = 'application/json';
  const token = getAccessToken();
  if (token) h.authorization = `Bearer ${token}`;
  const imp = getImpersonation();
  if (imp) h[IMPERSONATE_HEADER] = imp.id;
  return h;
}

async function failure(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return new ApiError(serverMessage(body, GENERIC_ERROR), res.status, body);
}

export async function apiPatch<T>(path: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(buildUrl(path), {
      method: 'PATCH',
      headers: headers(true),
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  if (!res.ok) throw await failure(res);
  return (res.status === 204 ? null : await res.json()) as T;
}

export interface Download {
  /** A file (csv or sheet); null when the server answered otherwise (the export is e-mailed). */
  blob: Blob | null;
  filename: string;
}

/** GET a file; params may repeat (headers[]). */
export async function apiDownload(path: string, params: Params, repeated: Record<string, string[]> = {}) {
  const url = new URL(buildUrl(path, params), window.location.origin);
  for (const [k, values] of Object.entries(repeated)) for (const v of values) url.searchParams.append(k, v);
  let res: Response;
  try {
    res = await fetch(url.pathname + url.search, { headers: headers(false), credentials: 'same-origin' });
  } catch {
    throw new ApiError(UNKNOWN_ERROR, 0);
  }
  if (!res.ok) throw await failure(res);
  const type = res.headers.get('content-type') ?? '';
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  if (!/sheet|csv/.test(type)) return { blob: null, filename: name } satisfies Download;
  return { blob: await res.blob(), filename: name } satisfies Download;
}

/** Saves a blob through a temporary link. */
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
