import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type ServiceName } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { GatewayAudit } from '../../../gateway/src/audit/audit';
import { Policy } from '../../../gateway/src/policy/policy';
import { closePools, createPools, type Pools } from '../../../gateway/src/upstreams/pools';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The audit trail never costs a request anything when the user service is away: entries stay
 * buffered (the fallback of the store before the answer, audit-durable.test.ts) and are sent once it
 * answers again, each stored once however often its batch is sent.
 */
let t: TestEnv;
let stack: Stack;
let pools: Pools;
let relay: Server;
let port: number;

/** Forwards to the real user service; stopped and started to play an outage on a fixed address. */
function startRelay(): Promise<void> {
  const target = new URL(stack.serviceUrls.user);
  relay = createServer((req, res) => {
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  return new Promise((resolve) => relay.listen(port, '127.0.0.1', () => resolve()));
}

const fakeCall = (id: string) =>
  ({
    id,
    method: 'POST',
    url: '/api/cm/cases/4242/notes?x=1',
    ip: '10.1.2.3',
    tenant: { config: { id: 'acme' } },
    call: {
      rule: new Policy().match('POST', '/api/cm/cases/4242/notes'),
      actor: { id: 1 },
      effective: { id: 1 },
      impersonating: false,
    },
  }) as unknown as FastifyRequest;

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const upstreams = { ...stack.serviceUrls, user: `http://127.0.0.1:${port}` } as Record<ServiceName, string>;
  pools = createPools(upstreams, 2000);
});
afterAll(async () => {
  await closePools(pools);
  await new Promise((resolve) => (relay?.listening ? relay.close(resolve) : resolve(undefined)));
  await stack.close();
  await t.close();
});

const stored = async (requestId: string) =>
  (
    await t.db.query<{ route: string; ip: string }>(
      `select route, ip from users.audit_log where request_id = $1`,
      [requestId],
    )
  ).rows;

describe('audit while the user service is down', () => {
  it('keeps entries while it is unreachable and sends them once it is back', async () => {
    const audit = new GatewayAudit(pools, t.deps.contextSecret, createLogger(t.deps.env, 'audit-test'), {
      flushMs: 60_000,
    });
    const id = `outage-${Date.now()}`;
    expect(() => audit.observe(fakeCall(id), 201)).not.toThrow();
    await audit.flush(true);
    expect(audit.pending).toBe(1);
    expect(await stored(id)).toEqual([]);

    await startRelay();
    await audit.flush(true);
    expect(audit.pending).toBe(0);
    expect(await stored(id)).toEqual([{ route: '/api/cm/cases/:id/notes', ip: '10.1.2.3' }]);
    await audit.close();
  });

  it('drops the oldest entries beyond its bound, never the request', async () => {
    const audit = new GatewayAudit(pools, t.deps.contextSecret, createLogger(t.deps.env, 'audit-test'), {
      flushMs: 60_000,
      maxBuffered: 3,
    });
    await new Promise((resolve) => relay.close(resolve));
    for (let i = 0; i < 5; i++) audit.observe(fakeCall(`bound-${i}`), 200);
    expect(audit.pending).toBe(3);
    await audit.flush(true);
    expect(audit.pending).toBe(3);
    await startRelay();
    await audit.close();
    expect(audit.pending).toBe(0);
    expect(await stored('bound-0')).toEqual([]);
    expect(await stored('bound-4')).toHaveLength(1);
  });

  it('answers a recorded call at once while it is down, then does not try until the next flush period', async () => {
    const audit = new GatewayAudit(pools, t.deps.contextSecret, createLogger(t.deps.env, 'audit-test'), {
      flushMs: 60_000,
    });
    relay.closeAllConnections();
    await new Promise((resolve) => relay.close(resolve));
    const started = Date.now();
    // Refused at once: into the buffer; the call after it does not wait for the user service at all.
    expect(await audit.record(fakeCall('record-down-1'), 201)).toBe('failed');
    expect(await audit.record(fakeCall('record-down-2'), 201)).toBe('backoff');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(audit.pending).toBe(2);
    // Calls that are not audited never wait.
    expect(audit.record({ ...fakeCall('record-get'), method: 'GET' } as FastifyRequest, 200)).toBeNull();

    await startRelay();
    await audit.close();
    expect(audit.pending).toBe(0);
    expect(await stored('record-down-1')).toHaveLength(1);
    expect(await stored('record-down-2')).toHaveLength(1);
  });

  it('stores a batch sent twice once, and takes batches from system calls only', async () => {
    const entry = {
      entry_id: '6f1c1d8e-8f0e-4c7a-9b1e-2d3c4b5a6978',
      actor_id: 1,
      user_id: 1,
      method: 'DELETE',
      route: '/api/users/blockip/:id',
      target_ids: { id: '9' },
      status: 204,
      request_id: 'twice-sent-batch',
      ip: null,
      at: new Date().toISOString(),
    };
    const post = (context: Parameters<typeof contextHeaders>[1]) =>
      fetch(`${stack.serviceUrls.user}/users/audit/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...contextHeaders(t.deps.contextSecret, context) },
        body: JSON.stringify({ entries: [entry] }),
      });
    expect(await (await post({})).json()).toEqual({ stored: 1 });
    expect(await (await post({})).json()).toEqual({ stored: 0 });
    expect(await stored('twice-sent-batch')).toHaveLength(1);
    const asUser = await post({ kind: 'user', user_id: 1, actor_id: 1 });
    expect(asUser.status).toBe(403);
  });
});
