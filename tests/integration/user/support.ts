import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  REFRESH_COOKIE,
  demoTenant,
  demoUserId,
  type InternalContext,
} from '@portal/contracts';
import {
  buildServiceApp,
  createLogger,
  loadEnv,
  MemoryCache,
  migrate,
  openPglite,
  type Db,
} from '@portal/core';
import { seedUser, userMigrations, userService } from '../../../services/user/src/index';
import { contextHeaders } from '../../support/context';
import type { TestEnv } from '../../support/test-env';

/** Helpers of the user-service tests: the service app on a test env, contexts as the gateway signs them. */
export function demoId(tenant: string, username: string): number {
  const user = DEMO_USERS.find((u) => u.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return demoUserId(demoTenant(tenant), user);
}

export async function buildUserApp(t: TestEnv): Promise<FastifyInstance> {
  return buildServiceApp(userService, t.deps);
}

/** The user service alone on the embedded default (a fresh PGlite, migrated and seeded; in-process cache). */
export async function buildUserAppOnPglite(
  contextSecret: string,
  dirPrefix: string,
): Promise<{ db: Db; app: FastifyInstance }> {
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  const db = await openPglite(join(dir, 'db'));
  await migrate(db, userMigrations);
  await seedUser(db);
  const env = loadEnv(['user'], { DATA_DIR: dir, LOG_LEVEL: 'error' });
  const app = await buildServiceApp(userService, {
    env,
    db,
    cache: new MemoryCache(),
    contextSecret,
    log: createLogger(env, 'test'),
  });
  return { db, app };
}

export function publicHeaders(t: TestEnv, tenant = 'acme', ip = '203.0.113.10') {
  return { ...contextHeaders(t.deps.contextSecret, { tenant, kind: 'public' }), 'x-client-ip': ip };
}

export function userHeaders(
  t: TestEnv,
  tenant: string,
  username: string,
  extra: Partial<Omit<InternalContext, 'exp'>> = {},
) {
  const id = demoId(tenant, username);
  return {
    ...contextHeaders(t.deps.contextSecret, {
      tenant,
      kind: 'user',
      user_id: id,
      actor_id: id,
      username,
      ...extra,
    }),
    'x-client-ip': '203.0.113.10',
  };
}

export function systemHeaders(t: TestEnv, tenant = 'acme') {
  return contextHeaders(t.deps.contextSecret, { tenant, kind: 'system' });
}

/** The refresh token of a response's Set-Cookie, and the cookie attributes. */
export function refreshCookie(response: {
  headers: Record<string, unknown>;
}): { value: string; raw: string } | undefined {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? (header as string[]) : header ? [String(header)] : [];
  const raw = list.find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  if (!raw) return undefined;
  return { value: decodeURIComponent(raw.slice(REFRESH_COOKIE.length + 1).split(';')[0]!), raw };
}

export function cookieHeader(token: string) {
  return { cookie: `${REFRESH_COOKIE}=${encodeURIComponent(token)}` };
}

export async function signIn(
  app: FastifyInstance,
  t: TestEnv,
  username: string,
  password = DEMO_PASSWORD,
  tenant = 'acme',
  ip?: string,
) {
  return app.inject({
    method: 'POST',
    url: '/users/auth/signin',
    headers: publicHeaders(t, tenant, ip),
    payload: { username, password },
  });
}

/**
 * The user service wired to a real case service (for whoami's merchant data
 * and the hierarchy rules), both listening on loopback.
 */
export async function buildUserWithCase(
  t: TestEnv,
): Promise<{ app: FastifyInstance; caseApp: FastifyInstance; close(): Promise<void> }> {
  const { SERVICES } = await import('@portal/runner');
  const { listen } = await import('@portal/core');
  const caseApp = await buildServiceApp(SERVICES.case.definition, t.deps);
  const caseUrl = await listen(caseApp, 0, '127.0.0.1');
  const app = await buildServiceApp(userService, { ...t.deps, env: { ...t.env, CASE_SERVICE_URL: caseUrl } });
  return {
    app,
    caseApp,
    close: async () => {
      await app.close();
      await caseApp.close();
    },
  };
}

/** A compact JWS signed by hand (so tests can forge any header, alg and claims). */
export function forgeJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  keyPem?: string,
): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const data = `${enc(header)}.${enc(payload)}`;
  if (!keyPem) return `${data}.`;
  const sig = cryptoSign(null, Buffer.from(data), createPrivateKey(keyPem)).toString('base64url');
  return `${data}.${sig}`;
}

/** Mail written to the outbox of the test's DATA_DIR, newest last; waits for the asynchronous send. */
export async function outbox(
  t: TestEnv,
  to: string,
  count = 1,
  timeoutMs = 3000,
): Promise<{ to: string; subject: string; text: string }[]> {
  const dir = join(t.env.DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
      : [];
    const mails = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8'))).filter((m) => m.to === to);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
}
