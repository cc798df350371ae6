import type { CallType, HttpAnswer, HttpRequest, Send } from '../types';

/** Query parameters as the web app's api client writes them: undefined, null and '' are left out. */
export type Params = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, params?: Params): string {
  if (!params) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/** An outcome the operation reports as its error text (an unexpected status, a missing field). */
export class MixError extends Error {
  override name = 'MixError';
}

/** The request never got an answer (refused, reset, timeout): the engine counted it already. */
export class TransportError extends Error {
  override name = 'TransportError';
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  text: string;
  headers: HttpAnswer['headers'];
  requestId: string;
  method: string;
  path: string;
}

export function header(answer: Pick<Answer, 'headers'>, name: string): string | undefined {
  const v = answer.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

export interface RawCall {
  params?: Params;
  /** JSON body (sent with content-type application/json). */
  body?: unknown;
  /** A prepared body (multipart), with its own headers. */
  raw?: { body: Buffer; contentType: string };
  token?: string;
  headers?: Record<string, string>;
}

/** One request through the engine's `send`, measured under `type`. */
export async function rawCall(
  send: Send,
  type: CallType,
  method: HttpRequest['method'],
  path: string,
  options: RawCall = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.raw) {
    body = options.raw.body;
    headers['content-type'] = options.raw.contentType;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const fullPath = withQuery(path, options.params);
  let answer: HttpAnswer;
  try {
    answer = await send(type, { method, path: fullPath, headers, ...(body !== undefined ? { body } : {}) });
  } catch (error) {
    throw new TransportError(`${method} ${path}: ${(error as Error).message}`, { cause: error });
  }
  const text = answer.body.toString('utf8');
  let json: unknown;
  if (/json/.test(header(answer, 'content-type') ?? '') && text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {
    status: answer.status,
    json,
    text,
    headers: answer.headers,
    requestId: header(answer, 'x-request-id') ?? '',
    method,
    path: fullPath,
  };
}

/** The server's message of an error answer, short. */
export function messageOf(answer: Answer): string {
  const m = (answer.json as { message?: unknown } | undefined)?.message;
  return (typeof m === 'string' ? m : answer.text).slice(0, 200);
}

/** Throws the operation's error text unless the status is one of `ok`. */
export function expectStatus(answer: Answer, ...ok: number[]): void {
  if (ok.includes(answer.status)) return;
  const pathOnly = answer.path.split('?')[0];
  throw new MixError(`${answer.method} ${pathOnly} answered ${answer.status}: ${messageOf(answer)}`);
}

/** The answer's JSON object, or an error naming the call. */
export function objectOf<T>(answer: Answer): T {
  if (!answer.json || typeof answer.json !== 'object') {
    const pathOnly = answer.path.split('?')[0];
    throw new MixError(`${answer.method} ${pathOnly} answered ${answer.status} without a JSON body`);
  }
  return answer.json as T;
}

/** A list answer's data and total ({data, pagination: {total}}). */
export function listOf<T>(answer: Answer): { data: T[]; total: number } {
  const body = objectOf<{ data?: unknown; pagination?: { total?: unknown } }>(answer);
  if (!Array.isArray(body.data) || typeof body.pagination?.total !== 'number') {
    const pathOnly = answer.path.split('?')[0];
    throw new MixError(`${answer.method} ${pathOnly} answered without data and pagination.total`);
  }
  return { data: body.data as T[], total: body.pagination.total };
}
