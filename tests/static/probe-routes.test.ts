/**
 * The probe routes docker-compose.yml, the Dockerfile and deploy/ point at (by the contracts'
 * constants, compose.test.ts and deploy.test.ts) are served by each kind of process, without an
 * internal context or a tenant's Host: a service as core's buildServiceApp builds it, the gateway,
 * the job worker's health server. No Postgres or Redis here: stubs answer for them.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_HEALTH_PATH,
  GATEWAY_LIVE_PATH,
  GATEWAY_READY_PATH,
  SERVICE_HEALTH_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
} from '@portal/contracts';
import { buildServiceApp, createLogger, loadEnv, MemoryCache, type Db } from '@portal/core';
import type { JobWorker } from '@portal/jobs';
import { buildGateway } from '../../gateway/src/app';
import { createWorkerHealthServer } from '../../services/runner/src/worker';

const env = loadEnv(['gateway', 'case'], { NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const log = createLogger(env, 'probe-routes');
const db = { query: async () => ({ rows: [], rowCount: 1 }) } as unknown as Db;

describe('probe routes', () => {
  it('a service serves them without an internal context', async () => {
    const app = await buildServiceApp(
      { name: 'case', title: 'probes', routes: async () => undefined },
      { env, db, cache: new MemoryCache(), contextSecret: 'x'.repeat(32), log },
    );
    try {
      for (const url of [SERVICE_HEALTH_PATH, SERVICE_LIVE_PATH, SERVICE_READY_PATH]) {
        expect(app.hasRoute({ method: 'GET', url }), url).toBe(true);
        expect((await app.inject({ url })).statusCode, url).toBe(200);
      }
    } finally {
      await app.close();
    }
  });

  it('the gateway serves them without a tenant Host (a kubelet sends the pod address)', async () => {
    const gateway = await buildGateway(
      {
        env,
        cache: new MemoryCache(),
        log,
        contextSecret: 'x'.repeat(32),
        // Nothing listens there: its readiness is 503, naming them.
        upstreams: {
          case: 'http://127.0.0.1:9',
          user: 'http://127.0.0.1:9',
          docs: 'http://127.0.0.1:9',
          builder: 'http://127.0.0.1:9',
        },
      },
      { watchTenants: false },
    );
    try {
      for (const url of [GATEWAY_HEALTH_PATH, GATEWAY_LIVE_PATH, GATEWAY_READY_PATH])
        expect(gateway.hasRoute({ method: 'GET', url }), url).toBe(true);
      const headers = { host: '10.42.0.7:8080' };
      expect((await gateway.inject({ url: GATEWAY_LIVE_PATH, headers })).statusCode).toBe(200);
      const ready = await gateway.inject({ url: GATEWAY_READY_PATH, headers });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ down: ['case', 'user', 'docs', 'builder'] });
    } finally {
      await gateway.close();
    }
  });

  it('the job worker serves them', async () => {
    const server = createWorkerHealthServer(db, { state: 'started' } as JobWorker);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of [SERVICE_HEALTH_PATH, SERVICE_LIVE_PATH, SERVICE_READY_PATH])
        expect((await fetch(`${base}${path}`)).status, path).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
