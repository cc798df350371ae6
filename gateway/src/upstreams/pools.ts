import { SERVICE_NAMES, type ServiceName } from '@portal/core';
import { Pool } from 'undici';
import { INTERNAL_CONTEXT_HEADER, REQUEST_ID_HEADER, type InternalContext } from '@portal/contracts';
import { signContext } from '@portal/core';

/**
 * One keep-alive pool per upstream, shared by the proxy, the gateway's own
 * calls (whoami, lookups, JWKS, audit) and the health check. Upstreams keep
 * connections 72 s; ours expire first so we never write on a closing socket.
 */
export type Pools = Record<ServiceName, Pool>;

const CLIENT_IP = 'x-client-ip';

export function createPools(upstreams: Record<ServiceName, string>, timeoutMs: number): Pools {
  const pools = {} as Pools;
  for (const name of SERVICE_NAMES) {
    pools[name] = new Pool(upstreams[name], {
      connections: 128,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      keepAliveMaxTimeout: 60_000,
      connectTimeout: 2_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }
  return pools;
}

export async function closePools(pools: Pools) {
  await Promise.all(Object.values(pools).map((p) => p.close().catch(() => p.destroy())));
}

export interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A call the gateway makes on its own (not a proxied one), signed with a context. */
export async function callUpstream(
  pool: Pool,
  secret: string,
  options: {
    method: 'GET' | 'POST';
    path: string;
    context: Omit<InternalContext, 'exp'>;
    body?: unknown;
    timeoutMs: number;
    clientIp?: string;
  },
): Promise<UpstreamAnswer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await pool.request({
    method: options.method,
    path: options.path,
    headers: {
      [INTERNAL_CONTEXT_HEADER]: signContext(options.context, secret),
      [REQUEST_ID_HEADER]: options.context.request_id,
      ...(options.clientIp ? { [CLIENT_IP]: options.clientIp } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const text = await response.body.text();
  const ct = response.headers['content-type'];
  return {
    status: response.statusCode,
    contentType: Array.isArray(ct) ? (ct[0] ?? '') : (ct ?? ''),
    body: text,
  };
}

/** An upstream transport failure as the client sees it: 503 refused/unreachable, 504 slow, 502 otherwise; never the raw text. */
export function upstreamFailure(error: unknown): 502 | 503 | 504 {
  const e = error as { code?: string; cause?: { code?: string }; statusCode?: number };
  const code = e.cause?.code ?? e.code ?? '';
  if (
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'UND_ERR_CONNECT_TIMEOUT',
      'UND_ERR_CLOSED',
      'UND_ERR_DESTROYED',
    ].includes(code)
  )
    return 503;
  if (
    [
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT',
      'ETIMEDOUT',
      'FST_REPLY_FROM_GATEWAY_TIMEOUT',
    ].includes(code)
  )
    return 504;
  if (e.statusCode === 503 || e.statusCode === 504) return e.statusCode;
  return 502;
}
