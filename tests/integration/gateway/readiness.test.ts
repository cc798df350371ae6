/**
 * Issue 31.5: the gateway's probes on the real stack (services, Postgres, Redis). Liveness stays 200
 * whatever is down; readiness is 200 only when Redis and every upstream are ready, else 503 naming
 * what is down, within the checks' time bound. Probes need no tenant: a kubelet sends the pod's
 * address as Host.
 */
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_LIVE_PATH,
  GATEWAY_READY_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
  type HealthResponse,
} from '@portal/contracts';
import { buildServiceApp, listen, RedisCache, SERVICE_NAMES, type ServiceName } from '@portal/core';
import { buildGateway, type GatewayDeps } from '@portal/gateway';
import { SERVICES, startStack, type Stack } from '@portal/runner';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/** A kubelet's Host: the pod's address, no tenant's domain. */
const POD_HOST = { host: '10.42.0.7:8080' };

let t: TestEnv;
let stack: Stack;
const closers: Array<() => Promise<unknown>> = [];

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Another gateway on the test's database and Redis, with some of its parts replaced. */
async function gatewayWith(parts: {
  cache?: GatewayDeps['cache'];
  upstreams?: Partial<Record<ServiceName, string>>;
}) {
  const gateway = await buildGateway(
    {
      env: t.env,
      cache: parts.cache ?? t.deps.cache,
      log: t.deps.log,
      contextSecret: t.deps.contextSecret,
      upstreams: { ...stack.serviceUrls, ...parts.upstreams },
    },
    { watchTenants: false },
  );
  closers.push(() => gateway.close());
  return gateway;
}

async function probe(gateway: FastifyInstance, url: string) {
  const started = Date.now();
  const answer = await gateway.inject({ url, headers: POD_HOST });
  return { status: answer.statusCode, body: answer.json<HealthResponse>(), ms: Date.now() - started };
}

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1', metricsPort: null });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await stack?.close();
  await t?.close();
});

describe('gateway readiness and liveness (issue 31.5)', () => {
  it('is ready when Redis and every upstream are, over the network and without a tenant Host', async () => {
    const ready = await fetch(`${stack.gatewayUrl}${GATEWAY_READY_PATH}`, { headers: POD_HOST });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({
      status: 'ok',
      service: 'gateway',
      checks: { redis: 'up', case: 'up', user: 'up', docs: 'up', builder: 'up' },
    });
    const live = await fetch(`${stack.gatewayUrl}${GATEWAY_LIVE_PATH}`, { headers: POD_HOST });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', service: 'gateway', checks: {} });
    // HEAD too (some load balancers probe with it).
    const head = await stack.gateway.inject({ method: 'HEAD', url: GATEWAY_READY_PATH, headers: POD_HOST });
    expect(head.statusCode).toBe(200);
  });

  it('each service and its probes: live and ready', async () => {
    for (const name of SERVICE_NAMES) {
      const live = await fetch(`${stack.serviceUrls[name]}${SERVICE_LIVE_PATH}`);
      expect(await live.json(), name).toEqual({ status: 'ok', service: name, checks: {} });
      const ready = await fetch(`${stack.serviceUrls[name]}${SERVICE_READY_PATH}`);
      expect(ready.status, name).toBe(200);
      expect(await ready.json(), name).toEqual({
        status: 'ok',
        service: name,
        checks: { postgres: 'up', redis: 'up' },
      });
    }
  });

  it('is not ready, naming the upstream, when one refuses connections; still alive', async () => {
    const gateway = await gatewayWith({ upstreams: { docs: `http://127.0.0.1:${await closedPort()}` } });
    const ready = await probe(gateway, GATEWAY_READY_PATH);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'down',
      service: 'gateway',
      checks: { redis: 'up', case: 'up', user: 'up', docs: 'down', builder: 'up' },
      down: ['docs'],
    });
    expect(ready.ms).toBeLessThan(2500);
    expect((await probe(gateway, GATEWAY_LIVE_PATH)).status).toBe(200);
  });

  it('is not ready, naming the upstream, while it drains and once it has stopped', async () => {
    const name: ServiceName = 'builder';
    const own = await buildServiceApp(SERVICES[name].definition, t.deps);
    closers.push(() => own.close());
    const url = await listen(own, 0, '127.0.0.1');
    const gateway = await gatewayWith({ upstreams: { [name]: url } });
    expect((await probe(gateway, GATEWAY_READY_PATH)).status).toBe(200);

    // Draining (SIGTERM): its readiness turns 503 at once while it still serves.
    own.drain.start();
    expect((await fetch(`${url}${SERVICE_READY_PATH}`)).status).toBe(503);
    await expect
      .poll(async () => (await probe(gateway, GATEWAY_READY_PATH)).body.down, {
        timeout: 5000,
        interval: 200,
      })
      .toEqual([name]);

    // Stopped.
    await own.close();
    await expect
      .poll(async () => (await probe(gateway, GATEWAY_READY_PATH)).body.checks[name], { timeout: 5000 })
      .toBe('down');
    expect((await probe(gateway, GATEWAY_LIVE_PATH)).status).toBe(200);
  });

  it('is not ready, naming Redis, when Redis does not answer; still alive', async () => {
    const cache = new RedisCache({
      url: `redis://127.0.0.1:${await closedPort()}`,
      keyPrefix: t.redisPrefix,
    });
    closers.push(() => cache.close());
    const gateway = await gatewayWith({ cache });
    const ready = await probe(gateway, GATEWAY_READY_PATH);
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ redis: 'down', case: 'up', user: 'up', docs: 'up', builder: 'up' });
    expect(ready.body.down).toEqual(['redis']);
    expect(ready.ms).toBeLessThan(2500);
    expect((await probe(gateway, GATEWAY_LIVE_PATH)).status).toBe(200);
    // The gateway itself keeps serving without Redis (design §4): its public calls still answer.
    const tenant = await gateway.inject({ url: '/api/tenant', headers: { host: 'acme.localhost' } });
    expect(tenant.statusCode).toBe(200);
  });

  it('reuses one round of checks for a burst of probes', async () => {
    let calls = 0;
    const counting = createServer((socket) => {
      calls++;
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
        ),
      );
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => counting.close(resolve)));
    const gateway = await gatewayWith({
      upstreams: { case: `http://127.0.0.1:${(counting.address() as AddressInfo).port}` },
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => probe(gateway, GATEWAY_READY_PATH)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(calls).toBe(1);
  });
});
