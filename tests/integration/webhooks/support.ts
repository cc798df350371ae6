import { createHmac } from 'node:crypto';
import { buildServiceApp, createLogger } from '@portal/core';
import { JobWorker } from '@portal/jobs';
import { SERVICES } from '@portal/runner';
import { userService } from '../../../services/user/src/index';
import { WEBHOOK_JOBS } from '../../../services/user/src/webhooks/delivery-jobs';
import type { Ctx } from '../case/case-app';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers loosely and assert on them
type Json = any;
type App = Awaited<ReturnType<typeof buildServiceApp>>;
export interface Answer {
  status: number;
  body: Json;
  raw: string;
}

/**
 * The case and user services on one test database (the worker reads the
 * merchant tree the case service owns), the receiver's loopback network
 * allow-listed as an operator would for an internal receiver.
 */
export interface WebhookWorld {
  t: TestEnv;
  caseCall(method: string, url: string, ctx: Ctx, body?: unknown): Promise<Answer>;
  userCall(method: string, url: string, ctx: Ctx, body?: unknown): Promise<Answer>;
  /** Starts the event dispatcher and delivery worker (once). */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

async function inject(app: App, secret: string, method: string, url: string, ctx: Ctx, body?: unknown) {
  const r = await app.inject({
    method: method as 'GET',
    url,
    headers: contextHeaders(secret, ctx),
    ...(body === undefined ? {} : { payload: body as object }),
  });
  let parsed: unknown;
  try {
    parsed = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: r.statusCode, body: parsed, raw: r.body };
}

export async function startWebhookWorld(overrides: Record<string, string> = {}): Promise<WebhookWorld> {
  const t = await createTestEnv({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ...overrides });
  const caseApp = await buildServiceApp(SERVICES.case.definition, t.deps);
  const userApp = await buildServiceApp(userService, t.deps);
  const log = createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'webhooks-test');
  let worker: JobWorker | undefined;
  const secret = t.deps.contextSecret;
  return {
    t,
    caseCall: (method, url, ctx, body) => inject(caseApp, secret, method, url, ctx, body),
    userCall: (method, url, ctx, body) => inject(userApp, secret, method, url, ctx, body),
    async startWorker() {
      worker ??= new JobWorker({
        db: t.db,
        log,
        env: t.env,
        jobs: WEBHOOK_JOBS,
        pollingIntervalSeconds: 0.5,
      });
      if (worker.state !== 'started') await worker.start();
    },
    async close() {
      await worker?.stop(1);
      await userApp.close();
      await caseApp.close();
      await t.close();
    },
  };
}

/** What an integrator does: recompute the HMAC of `${t}.${body}` and compare (independent of the service's code). */
export function verifies(secret: string, body: string, header: string | string[] | undefined): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex');
  return expected === match[2];
}

/** Polls until `check` answers a value (or fails after the timeout). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
