import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DEMO_PASSWORD, DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { loggerOptions, type Logger } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, type GatewayAnswer } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

// pino is a dependency of @portal/core, not of the tests: resolved from there.
const pino = createRequire(join(__dirname, '../../../packages/core/package.json'))('pino') as (
  options: object,
  stream: Writable,
) => Logger;

/** The stack on real Postgres and Redis, every log line (debug and up) kept in memory to search. */
export interface KeyWorld {
  t: TestEnv;
  stack: Stack;
  logs: string[];
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; tenant?: string },
  ): Promise<GatewayAnswer>;
  signIn(username: string, tenant?: string): Promise<string>;
  userId(username: string, tenant?: string): number;
  close(): Promise<void>;
}

export async function startKeyWorld(): Promise<KeyWorld> {
  const t = await createTestEnv({ UPSTREAM_TIMEOUT_MS: '5000' });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = pino({ ...loggerOptions(t.env, 'api-keys-test'), level: 'debug' }, sink);
  const stack = await startStack({ ...t.deps, log }, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const call: KeyWorld['call'] = (method, path, opts = {}) =>
    callGateway(stack.gatewayUrl, opts.tenant ?? 'acme', method, path, opts);
  return {
    t,
    stack,
    logs,
    call,
    async signIn(username, tenant = 'acme') {
      const r = await call('POST', '/api/users/auth/signin', {
        tenant,
        body: { username, password: DEMO_PASSWORD },
      });
      if (r.status !== 200)
        throw new Error(`${username} could not sign in: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.access_token as string;
    },
    userId: (username, tenant = 'acme') =>
      demoUserId(
        demoTenant(tenant),
        DEMO_USERS.find((u) => u.username === username)!,
      ),
    async close() {
      await stack.close();
      await t.close();
    },
  };
}

/** Calls `probe` until it answers `status`, at most `withinMs`; the time it took (ms), or -1. */
export async function pollStatus(
  probe: () => Promise<GatewayAnswer>,
  status: number,
  withinMs: number,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const r = await probe();
    const took = Date.now() - started;
    if (r.status === status) return took;
    if (took > withinMs) return -1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
