import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { parse } from 'yaml';
import type { CallType, HttpAnswer, HttpRequest, Send } from '../types';

/**
 * The check script's stand-in for the engine's `send`: node:http with
 * keep-alive and the tenant's Host header, counting every answer by
 * operation, call type and status. Sign-ins wait for room under the tenant's
 * per-address and per-username limits (config/tenants/*.yaml rate_limits), so
 * that a sequential check never trips them itself.
 */
export interface StatusCounts {
  /** `${operation} ${type}` -> status -> count. */
  byOperation: Map<string, Map<number, number>>;
  /** Requests per operation the gateway's per-user limit does not count (public calls). */
  unlimited: Map<string, number>;
}

/** The calls without a signed-in user: the tenant bootstrap, sign-in, refresh and the signed upload form. */
const PUBLIC = /^\/api\/(tenant|users\/auth\/(signin|refresh)|docs\/objects\/upload)(\?|$)/;

const WINDOW_MS = 60_000;
/** Kept below each limit: the gateway's window starts at its first count, ours slides. */
const HEADROOM = 2;

interface SignInLimits {
  perAddress: number;
  perUsername: number;
}

function signInLimits(configDir: string, tenant: string): SignInLimits {
  const config = parse(readFileSync(`${configDir}/${tenant}.yaml`, 'utf8')) as {
    rate_limits?: { auth_ip_per_minute?: number; auth_username_per_minute?: number };
  };
  return {
    perAddress: config.rate_limits?.auth_ip_per_minute ?? 20,
    perUsername: config.rate_limits?.auth_username_per_minute ?? 8,
  };
}

export function checkSend(gatewayUrl: string, configDir: string) {
  const base = new URL(gatewayUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const counts: StatusCounts = { byOperation: new Map(), unlimited: new Map() };
  const signIns = new Map<string, number[]>();
  const limits = new Map<string, SignInLimits>();
  let operation = '';

  /** Waits until one more sign-in of this tenant and username stays under both limits. */
  async function roomForSignIn(tenant: string, username: string) {
    let limit = limits.get(tenant);
    if (!limit) {
      limit = signInLimits(configDir, tenant);
      limits.set(tenant, limit);
    }
    for (;;) {
      const now = Date.now();
      const recent = (key: string) => (signIns.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
      const byTenant = recent(tenant);
      const byUser = recent(`${tenant}/${username}`);
      signIns.set(tenant, byTenant);
      signIns.set(`${tenant}/${username}`, byUser);
      const full =
        byTenant.length >= limit.perAddress - HEADROOM || byUser.length >= limit.perUsername - HEADROOM;
      if (!full) {
        byTenant.push(now);
        byUser.push(now);
        return;
      }
      const oldest = Math.min(byTenant[0] ?? now, byUser[0] ?? now);
      await new Promise((r) => setTimeout(r, Math.max(200, oldest + WINDOW_MS - now + 50)));
    }
  }

  const forTenant =
    (tenant: string): Send =>
    async (type: CallType, req: HttpRequest): Promise<HttpAnswer> => {
      if (req.method === 'POST' && req.path === '/api/users/auth/signin') {
        const username = (JSON.parse(String(req.body)) as { username: string }).username;
        await roomForSignIn(tenant, username);
      }
      const answer = await new Promise<HttpAnswer>((resolve, reject) => {
        const body = req.body === undefined ? undefined : Buffer.from(req.body);
        const r = httpRequest(
          {
            host: base.hostname,
            port: base.port,
            path: req.path,
            method: req.method,
            agent,
            timeout: 60_000,
            headers: {
              ...req.headers,
              host: `${tenant}.localhost`,
              ...(body ? { 'content-length': String(body.length) } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        r.on('timeout', () => r.destroy(new Error('timeout')));
        r.on('error', reject);
        r.end(body);
      });
      const key = `${operation} ${type}`;
      const byStatus = counts.byOperation.get(key) ?? new Map<number, number>();
      byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      counts.byOperation.set(key, byStatus);
      if (PUBLIC.test(req.path)) counts.unlimited.set(operation, (counts.unlimited.get(operation) ?? 0) + 1);
      return answer;
    };

  return {
    counts,
    forTenant,
    /** Names the operation the next requests belong to (the counts' first key). */
    setOperation(name: string) {
      operation = name;
    },
    close: () => agent.destroy(),
  };
}
