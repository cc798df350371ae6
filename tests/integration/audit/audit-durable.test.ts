import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type ServiceName } from '@portal/core';
import { buildGateway } from '@portal/gateway';
import { startStack, type Stack } from '@portal/runner';
import { AUDIT_WAIT_MS } from '../../../gateway/src/audit/audit';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 31 part 4 (design §11): an answered request's audit entry survives a
 * crash of the gateway that answered it, because it is stored before the
 * answer goes out (group commit to the user service), many requests sharing
 * one batch; with the user service away the answer is not held up and the
 * entry follows from memory once it is back. Real gateways and services on
 * Postgres and Redis; the rows are read right after the answers: no flush, no
 * waiting.
 */
let t: TestEnv;
let stack: Stack;
/** A second gateway whose user service is reached through `relay` (counted, stopped and started). */
let relayed: FastifyInstance;
let relayedUrl: string;
let relay: Server | undefined;
let relayPort: number;
let token: string;
/** Audit batches that went through the relay. */
let batches = 0;
const children: ChildProcess[] = [];

function startRelay(): Promise<void> {
  const target = new URL(stack.serviceUrls.user);
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/users/audit/batch') batches++;
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  relay = server;
  return new Promise((resolve) => server.listen(relayPort, '127.0.0.1', () => resolve()));
}

async function stopRelay() {
  const server = relay;
  relay = undefined;
  if (!server?.listening) return;
  // Kept-alive sockets too: the gateway's pool must find nobody there.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function call(gatewayUrl: string, method: string, path: string, body?: unknown) {
  const requestId = randomUUID();
  const answer = await callGateway(gatewayUrl, 'acme', method, path, {
    token,
    body,
    headers: { 'x-request-id': requestId },
  });
  return { ...answer, requestId };
}

interface Row {
  method: string;
  route: string;
  target_ids: Record<string, string>;
  status: number;
}
async function rows(requestId: string): Promise<Row[]> {
  const { rows } = await t.db.query<Row>(
    `select method, route, target_ids, status from users.audit_log where request_id = $1 and entry_id is not null`,
    [requestId],
  );
  return rows;
}

/** Distinct unflagged cases of acme, never the same twice. */
const used: number[] = [];
async function cases(n: number): Promise<number[]> {
  const { rows } = await t.db.query<{ id: string }>(
    `select id from cases.cases where tenant_id = 'acme' and not is_flagged and not (id = any($1::bigint[]))
      order by id limit $2`,
    [used, n],
  );
  const ids = rows.map((r) => Number(r.id));
  used.push(...ids);
  return ids;
}

const fallbacks = async (reason: string) =>
  (await relayed.gw.metrics.auditFallback.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  relayPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  await startRelay();
  relayed = await buildGateway(
    {
      env: t.deps.env,
      cache: t.deps.cache,
      log: t.deps.log,
      contextSecret: t.deps.contextSecret,
      upstreams: { ...stack.serviceUrls, user: `http://127.0.0.1:${relayPort}` } as Record<
        ServiceName,
        string
      >,
    },
    { watchTenants: false },
  );
  relayedUrl = await listen(relayed, 0, '127.0.0.1');
  token = await signInThroughGateway(stack.gatewayUrl, 'acme', 'manager');
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (!relay) await startRelay();
  await relayed?.close();
  await stopRelay();
  await stack?.close();
  await t?.close();
});

describe('a durable audit entry', () => {
  it('is stored before its write is answered', async () => {
    const [id] = await cases(1);
    const flag = await call(stack.gatewayUrl, 'POST', `/api/cm/cases/${id}/flag`, {
      flag: true,
      comment: 'audited before answered',
    });
    expect(flag.status).toBe(200);
    // Read at once: a gateway killed now would have lost nothing.
    expect(await rows(flag.requestId)).toMatchObject([
      { method: 'POST', route: '/api/cm/cases/:id/flag', target_ids: { id: String(id) }, status: 200 },
    ]);
    const flagId = (flag.json.data as Array<{ flag: { id: number } }>)[0]!.flag.id;
    const unflag = await call(stack.gatewayUrl, 'PATCH', `/api/cm/cases/${id}/flag/${flagId}`, {
      is_flagged: false,
    });
    expect(unflag.status).toBe(200);
    // A rule's own parameter names (camelCase) are targets the user service takes too.
    expect(await rows(unflag.requestId)).toMatchObject([
      {
        method: 'PATCH',
        route: '/api/cm/cases/:id/flag/:flagId',
        target_ids: { id: String(id), flagId: String(flagId) },
        status: 200,
      },
    ]);
  });

  it('of many writes at once is stored before each answer, in fewer batches than writes', async () => {
    const ids = await cases(5);
    // Warms the relayed gateway (token, profile) so that the burst is writes only.
    expect(
      (await call(relayedUrl, 'POST', `/api/cm/cases/${ids[0]}/comments`, { comment: 'warm' })).status,
    ).toBe(200);
    const before = batches;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(relayedUrl, 'POST', `/api/cm/cases/${ids[i % ids.length]}/comments`, { comment: `burst ${i}` }),
      ),
    );
    const sent = batches - before;
    for (const a of answers) expect(a.status).toBe(200);
    const { rows: stored } = await t.db.query<{ request_id: string }>(
      `select request_id from users.audit_log where request_id = any($1::text[]) and entry_id is not null`,
      [answers.map((a) => a.requestId)],
    );
    expect(stored).toHaveLength(50);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(50);
    expect(await fallbacks('failed')).toBe(0);
    expect(await fallbacks('timeout')).toBe(0);
  });

  it('does not hold a write up while the user service is away, and follows once it is back', async () => {
    const [id] = await cases(1);
    // The relayed gateway knows the user (token, profile) from the test before.
    await stopRelay();
    const started = Date.now();
    const r = await call(relayedUrl, 'POST', `/api/cm/cases/${id}/comments`, { comment: 'while away' });
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    expect(took).toBeLessThan(AUDIT_WAIT_MS + 1000);
    expect(await rows(r.requestId)).toEqual([]);
    expect(relayed.gw.audit.pending).toBe(1);
    expect(await fallbacks('failed')).toBe(1);

    await startRelay();
    await expect.poll(async () => (await rows(r.requestId)).length).toBe(1);
    expect(await rows(r.requestId)).toMatchObject([
      { method: 'POST', route: '/api/cm/cases/:id/comments', target_ids: { id: String(id) }, status: 200 },
    ]);
    expect(relayed.gw.audit.pending).toBe(0);
  });
});

/** A gateway process over the stack's services (gateway-child.ts); resolves once it listens. */
function startGatewayProcess(): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'gateway-child.ts')], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATA_DIR: t.env.DATA_DIR,
      REDIS_URL: t.redisUrl,
      REDIS_KEY_PREFIX: t.redisPrefix,
      INTERNAL_CONTEXT_SECRET: t.deps.contextSecret,
      CASE_SERVICE_URL: stack.serviceUrls.case,
      USER_SERVICE_URL: stack.serviceUrls.user,
      DOCS_SERVICE_URL: stack.serviceUrls.docs,
      BUILDER_SERVICE_URL: stack.serviceUrls.builder,
    },
  });
  children.push(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ proc, url: `http://127.0.0.1:${m[1]}` });
    });
    proc.once('exit', (code) => reject(new Error(`gateway exited with ${code} before it listened`)));
  });
}

describe('a gateway killed right after answering', () => {
  it('has stored the audit entry of every write it answered', async () => {
    const gateway = await startGatewayProcess();
    const ids = await cases(4);
    // Signed in and warmed on this process, so that its last answers are writes.
    expect(
      (await call(gateway.url, 'POST', `/api/cm/cases/${ids[0]}/comments`, { comment: 'warm' })).status,
    ).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(gateway.url, 'POST', `/api/cm/cases/${ids[i % ids.length]}/comments`, { comment: `kill ${i}` }),
      ),
    );
    // SIGKILL as soon as the last answer is in: nothing in its memory is sent after this.
    gateway.proc.kill('SIGKILL');
    await new Promise((resolve) =>
      gateway.proc.signalCode !== null ? resolve(undefined) : gateway.proc.once('exit', resolve),
    );
    expect(gateway.proc.signalCode).toBe('SIGKILL');
    for (const a of answers) expect(a.status).toBe(200);
    const { rows: stored } = await t.db.query<{ request_id: string }>(
      `select request_id from users.audit_log where request_id = any($1::text[]) and entry_id is not null`,
      [answers.map((a) => a.requestId)],
    );
    expect(stored.map((r) => r.request_id).sort()).toEqual(answers.map((a) => a.requestId).sort());
  }, 60_000);
});
