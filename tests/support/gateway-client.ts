import { request as httpRequest } from 'node:http';
import { DEMO_PASSWORD } from '@portal/contracts';

/**
 * A call to the gateway as a tenant's browser would make it: the tenant comes
 * from the Host header, which Node's fetch cannot set (node:http can).
 */
export interface GatewayAnswer {
  status: number;
  /** Parsed JSON, or {} when the body is not JSON (a spreadsheet, a page). */
  json: Record<string, unknown>;
  headers: { get(name: string): string | null };
}

export function callGateway(
  gatewayUrl: string,
  tenant: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    /** A JSON text sent as it is (JSON.stringify cannot write 9223372036854775808 or 1e400 as numbers). */
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<GatewayAnswer> {
  const url = new URL(gatewayUrl);
  const body = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: {
          host: `${tenant}.localhost`,
          accept: 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            // not JSON
          }
          const get = (name: string) => {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
          };
          resolve({ status: res.statusCode ?? 0, json, headers: { get } });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Signs a demo user in through the gateway (demo password) and answers the access token. */
export async function signInThroughGateway(
  gatewayUrl: string,
  tenant: string,
  username: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const r = await callGateway(gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
    body: { username, password },
  });
  if (r.status !== 200 || typeof r.json.access_token !== 'string')
    throw new Error(`${tenant}/${username} could not sign in: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.access_token;
}
