import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCache } from '@portal/core';
import { buildGateway } from '@portal/gateway';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import {
  claimsFor,
  ed25519Signer,
  fakeEchoService,
  fakeUserService,
  profile,
  type FakeEchoService,
  type FakeUserService,
} from './fakes';

/**
 * Redis killed (refused) and hung (SIGSTOP) mid-traffic, then back: no
 * request fails, and the cache works again afterwards. The gateway gets its
 * own redis-server so the machine's shared one is never touched.
 */
let t: TestEnv;
let redis: ChildProcess | undefined;
let port = 0;
let cache: RedisCache;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let user: FakeUserService;
let cases: FakeEchoService;
const signer = ed25519Signer();
/** One user per test: each stays well under the per-user rate limit. */
const headersOf = (id: number) => ({
  host: 'acme.localhost',
  authorization: `Bearer ${signer.token(claimsFor(id, 'acme'))}`,
});

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

/** Requests in a loop while `during` runs; every status is collected. */
async function traffic(userId: number, during: () => Promise<void>): Promise<number[]> {
  const headers = headersOf(userId);
  const statuses: number[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const [a, b, c] = await Promise.all([
        gateway.inject({ url: '/api/cm/cases', headers }),
        gateway.inject({ method: 'POST', url: '/api/users/whoami', headers }),
        gateway.inject({ url: '/api/cm/gen/countries?limit=999', headers }),
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
  t = await createTestEnv({ UPSTREAM_TIMEOUT_MS: '2000' });
  port = await freePort();
  await startRedis();
  cache = new RedisCache({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'gwtest:', log: t.deps.log });
  await cache.ready(5000);
  user = await fakeUserService(t.deps.contextSecret, signer);
  user.profiles.set('acme:1000006', profile(1000006));
  user.profiles.set('acme:1000009', profile(1000009));
  cases = await fakeEchoService(t.deps.contextSecret, 'case');
  gateway = await buildGateway(
    {
      env: t.env,
      cache,
      log: t.deps.log,
      contextSecret: t.deps.contextSecret,
      upstreams: { case: cases.url, user: user.url, docs: cases.url, builder: cases.url },
    },
    { watchTenants: false },
  );
});

afterAll(async () => {
  await gateway?.close();
  await cache?.close();
  redis?.kill('SIGCONT');
  redis?.kill('SIGKILL');
  await Promise.all([user?.close(), cases?.close()]);
  await t?.close();
});

describe('Redis failures', () => {
  it('keeps serving while Redis is killed and restarted, and caches again afterwards', async () => {
    const statuses = await traffic(1000006, async () => {
      await sleep(300);
      redis!.kill('SIGKILL');
      await sleep(1500);
      const health = await gateway.inject({ url: '/api/health', headers: { host: 'acme.localhost' } });
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
          await gateway.inject({ url: '/api/cm/cases', headers: headersOf(1000006) });
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
    const metrics = await gateway.gw.metrics.registry.metrics();
    expect(metrics).toMatch(/gateway_redis_fail_open_total\{what="rate-limit"\} [1-9]/);
  });
});
