import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCache } from '@portal/core';
import { startGatewayHarness, type GatewayHarness } from '../../support/gateway-harness';
import { profile } from './fakes';

/**
 * Redis killed (refused) and hung (SIGSTOP) mid-traffic, then back: no
 * request fails, and the cache works again afterwards. The gateway gets its
 * own redis-server so the machine's shared one is never touched.
 */
let h: GatewayHarness;
let redis: ChildProcess | undefined;
let port = 0;
let cache: RedisCache;
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function startRedis() {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = new RedisCache({ url: `redis://127.0.0.1:${port}`, keyPrefix: '' });
  const ok = await probe.ready(5000);
  await probe.close();
  if (!ok) throw new Error('redis-server did not start');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Requests in a loop while `during` runs; every status is collected. One user
 * per test: each stays well under the per-user rate limit.
 */
async function traffic(userId: number, during: () => Promise<void>): Promise<number[]> {
  const headers = h.auth(userId);
  const statuses: number[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const [a, b, c] = await Promise.all([
        h.inject({ url: '/api/cm/cases', headers }),
        h.inject({ method: 'POST', url: '/api/users/whoami', headers }),
        h.inject({ url: '/api/cm/gen/countries?limit=999', headers }),
      ]);
      statuses.push(a.statusCode, b.statusCode, c.statusCode);
      await sleep(25);
    }
  })();
  await during();
  stop = true;
  await loop;
  return statuses;
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  h = await startGatewayHarness({
    env: { UPSTREAM_TIMEOUT_MS: '2000' },
    profiles: { 'acme:1000006': profile(1000006), 'acme:1000009': profile(1000009) },
    cache: async (t) => {
      cache = new RedisCache({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'gwtest:', log: t.deps.log });
      await cache.ready(5000);
      return cache;
    },
  });
});

afterAll(async () => {
  await h?.close();
  await cache?.close();
  redis?.kill('SIGCONT');
  redis?.kill('SIGKILL');
});

describe('Redis failures', () => {
  it('keeps serving while Redis is killed and restarted, and caches again afterwards', async () => {
    const statuses = await traffic(1000006, async () => {
      await sleep(300);
      redis!.kill('SIGKILL');
      await sleep(1500);
      const health = await h.inject({ url: '/api/health', headers: { host: 'acme.localhost' } });
      expect(health.json().checks.redis).toBe('down');
      await startRedis();
      await sleep(2500);
    });
    expect(statuses.length).toBeGreaterThan(30);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Back in use: a request after the outage stores the profile in Redis again.
    await expect
      .poll(
        async () => {
          await h.inject({ url: '/api/cm/cases', headers: h.auth(1000006) });
          return cache.get('gw:profile:acme:1000006');
        },
        { timeout: 8000, interval: 300 },
      )
      .not.toBeNull();
  });

  it('keeps serving while Redis hangs (SIGSTOP) and recovers on SIGCONT', async () => {
    const statuses = await traffic(1000009, async () => {
      await sleep(300);
      redis!.kill('SIGSTOP');
      await sleep(2000);
      redis!.kill('SIGCONT');
      await sleep(2500);
    });
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(30);
    const metrics = await h.gateway.gw.metrics.registry.metrics();
    expect(metrics).toMatch(/gateway_redis_fail_open_total\{what="rate-limit"\} [1-9]/);
  });
});
