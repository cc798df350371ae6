/**
 * Issue 31.5: the probes of a service and of the job worker against real Postgres and Redis.
 * Liveness asks no dependency; readiness needs Postgres (a service stays ready without Redis, only
 * degraded), answers within its bound when Postgres hangs, and is 503 while a service drains. Postgres
 * is reached through a TCP proxy the test can cut, so the shared server is never touched.
 */
import type { Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LIVE_PATH, SERVICE_READY_PATH, type HealthResponse } from '@portal/contracts';
import {
  buildServiceApp,
  connectPostgres,
  DATABASE_UNAVAILABLE_MESSAGE,
  RedisCache,
  type Db,
} from '@portal/core';
import { JobWorker } from '@portal/jobs';
import { SERVICES } from '@portal/runner';
import { createWorkerHealthServer } from '../../../services/runner/src/worker';
import { contextHeaders, demoUserContext } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
const closers: Array<() => Promise<unknown>> = [];

/**
 * A TCP proxy to Postgres; `hang()` drops its connections and then accepts new ones without answering;
 * `stop()` drops them and refuses new ones (a restarting server).
 */
async function postgresProxy(target: URL) {
  const sockets = new Set<Socket>();
  let hung = false;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (hung) return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.toString(),
    hang() {
      hung = true;
      for (const s of sockets) s.destroy();
    },
    stop() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/** A database whose Postgres the test can make hang or stop. */
async function cuttableDb(): Promise<{ db: Db; hang: () => void; stop: () => void }> {
  const proxy = await postgresProxy(new URL(t.databaseUrl));
  const db = await connectPostgres(proxy.url, 2);
  closers.push(() => db.close().catch(() => undefined));
  return { db, hang: proxy.hang, stop: proxy.stop };
}

beforeAll(async () => {
  t = await createTestEnv();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await t?.close();
});

describe('service probes (issue 31.5)', () => {
  it('is ready while Postgres answers, not ready in bounded time when it hangs, alive throughout', async () => {
    const { db, hang } = await cuttableDb();
    const app = await buildServiceApp(SERVICES.case.definition, { ...t.deps, db });
    closers.push(() => app.close());
    const probe = async (url: string) => {
      const started = Date.now();
      const answer = await app.inject({ url });
      return { status: answer.statusCode, body: answer.json<HealthResponse>(), ms: Date.now() - started };
    };
    expect(await probe(SERVICE_READY_PATH)).toMatchObject({
      status: 200,
      body: { status: 'ok', service: 'case', checks: { postgres: 'up', redis: 'up' } },
    });

    hang();
    // The last answer is reused for a second; then the check gives up after 1.5 s, not the pool's 5 s.
    let answer = await probe(SERVICE_READY_PATH);
    while (answer.status === 200) answer = await probe(SERVICE_READY_PATH);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'down',
      service: 'case',
      checks: { postgres: 'down', redis: 'up' },
      down: ['postgres'],
    });
    expect(answer.ms).toBeLessThan(2500);
    const live = await probe(SERVICE_LIVE_PATH);
    expect(live).toMatchObject({ status: 200, body: { status: 'ok', service: 'case', checks: {} } });
    expect(live.ms).toBeLessThan(500);
  });

  it('answers a call 503 with Retry-After, not 500, while its Postgres is gone (a restart)', async () => {
    const { db, stop } = await cuttableDb();
    const app = await buildServiceApp(SERVICES.case.definition, { ...t.deps, db });
    closers.push(() => app.close());
    const call = () =>
      app.inject({
        url: '/cm/cases?limit=1',
        headers: contextHeaders(t.deps.contextSecret, demoUserContext('admin')),
      });
    expect((await call()).statusCode).toBe(200);
    stop();
    const answer = await call();
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: DATABASE_UNAVAILABLE_MESSAGE,
    });
  });

  it('stays ready without Redis (degraded): it serves every call without the cache', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const cache = new RedisCache({ url: `redis://127.0.0.1:${port}`, keyPrefix: t.redisPrefix });
    closers.push(() => cache.close());
    const app = await buildServiceApp(SERVICES.user.definition, { ...t.deps, cache });
    closers.push(() => app.close());
    const ready = await app.inject({ url: SERVICE_READY_PATH });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'degraded',
      service: 'user',
      checks: { postgres: 'up', redis: 'down' },
    });
  });

  it('is not ready while draining, and still serves', async () => {
    const app = await buildServiceApp(SERVICES.docs.definition, t.deps);
    closers.push(() => app.close());
    app.drain.start();
    const ready = await app.inject({ url: SERVICE_READY_PATH });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'down', draining: true, down: ['draining'] });
    expect((await app.inject({ url: SERVICE_LIVE_PATH })).statusCode).toBe(200);
  });
});

describe('worker probes (issue 31.5)', () => {
  async function serve(db: Db, worker: JobWorker) {
    const server: HttpServer = createWorkerHealthServer(db, worker);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return async (path: string) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: (await res.json()) as HealthResponse };
    };
  }

  it('is ready when Postgres answers and the job engine is started; alive whatever', async () => {
    const worker = new JobWorker({ db: t.db, log: t.deps.log, jobs: [] });
    const get = await serve(t.db, worker);
    expect(await get(SERVICE_LIVE_PATH)).toEqual({
      status: 200,
      body: { status: 'ok', service: 'worker', checks: {} },
    });
    expect(await get(SERVICE_READY_PATH)).toEqual({
      status: 503,
      body: {
        status: 'down',
        service: 'worker',
        checks: { postgres: 'up', worker: 'down' },
        down: ['worker'],
      },
    });
    await worker.start();
    closers.push(() => worker.stop(1));
    expect(await get(SERVICE_READY_PATH)).toEqual({
      status: 200,
      body: { status: 'ok', service: 'worker', checks: { postgres: 'up', worker: 'up' } },
    });
  });

  it('is not ready when its Postgres hangs, and still alive', async () => {
    const { db, hang } = await cuttableDb();
    const get = await serve(db, { state: 'started' } as JobWorker);
    expect((await get(SERVICE_READY_PATH)).status).toBe(200);
    hang();
    await expect
      .poll(async () => (await get(SERVICE_READY_PATH)).body.down, { timeout: 5000 })
      .toEqual(['postgres']);
    expect((await get(SERVICE_LIVE_PATH)).status).toBe(200);
  });
});
