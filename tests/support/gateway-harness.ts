import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { UserProfile } from '@portal/contracts';
import { buildGateway, type GatewayDeps } from '@portal/gateway';
import {
  claimsFor,
  ed25519Signer,
  fakeEchoService,
  fakeUserService,
  type FakeEchoService,
  type FakeUserService,
  type Signer,
} from '../integration/gateway/fakes';
import { createTestEnv, type TestEnv } from './test-env';

/**
 * The gateway on its own, written once for its tests: a test database and
 * Redis prefix, a fake user service (JWKS, whoami from a profile table,
 * audit) and echo upstreams (tests/integration/gateway/fakes.ts), a signer
 * for access tokens. The real services are in full-stack.ts.
 */
export interface GatewayHarnessOptions {
  /** Env overrides (createTestEnv). */
  env?: Record<string, string>;
  /** The users the fake user service knows, keyed `tenant:id`. */
  profiles?: Record<string, UserProfile>;
  /** docs and builder on echo services of their own; by default the case echo answers them too. */
  separateUpstreams?: boolean;
  /** A cache of the test's own (e.g. on a redis-server it kills); the test closes it. Default: the test env's. */
  cache?: (t: TestEnv) => Promise<GatewayDeps['cache']>;
}

export interface GatewayHarness {
  t: TestEnv;
  gateway: Awaited<ReturnType<typeof buildGateway>>;
  user: FakeUserService;
  cases: FakeEchoService;
  docs: FakeEchoService;
  builder: FakeEchoService;
  signer: Signer;
  /** gateway.inject: a request without a socket. */
  inject(request: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** A valid access token of user `id` for `tenant`. */
  token(id: number, tenant?: string): string;
  /** Request headers of that user: the tenant's Host and the bearer token, plus `extra`. */
  auth(id: number, tenant?: string, extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startGatewayHarness(options: GatewayHarnessOptions = {}): Promise<GatewayHarness> {
  // Closed newest first, also when a later step of the start-up fails.
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c();
  };
  try {
    const t = await createTestEnv(options.env);
    closers.push(() => t.close());
    const signer = ed25519Signer();
    const echo = async (name: string) => {
      const fake = await fakeEchoService(t.deps.contextSecret, name);
      closers.push(() => fake.close());
      return fake;
    };
    const user = await fakeUserService(t.deps.contextSecret, signer);
    closers.push(() => user.close());
    for (const [key, p] of Object.entries(options.profiles ?? {})) user.profiles.set(key, p);
    const cases = await echo('case');
    const docs = options.separateUpstreams ? await echo('docs') : cases;
    const builder = options.separateUpstreams ? await echo('builder') : cases;
    const gateway = await buildGateway(
      {
        env: t.env,
        cache: options.cache ? await options.cache(t) : t.deps.cache,
        log: t.deps.log,
        contextSecret: t.deps.contextSecret,
        upstreams: { case: cases.url, user: user.url, docs: docs.url, builder: builder.url },
      },
      { watchTenants: false },
    );
    closers.push(() => gateway.close());
    const token = (id: number, tenant = 'acme') => signer.token(claimsFor(id, tenant));
    return {
      t,
      gateway,
      user,
      cases,
      docs,
      builder,
      signer,
      inject: (request) => gateway.inject(request),
      token,
      auth: (id, tenant = 'acme', extra = {}) => ({
        host: `${tenant}.localhost`,
        authorization: `Bearer ${token(id, tenant)}`,
        ...extra,
      }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Starts the harness in beforeAll and closes it in afterAll. The object
 * returned is filled in by beforeAll: read its fields inside tests and hooks.
 */
export function useGatewayHarness(options: GatewayHarnessOptions = {}): GatewayHarness {
  const harness = {} as GatewayHarness;
  beforeAll(async () => {
    Object.assign(harness, await startGatewayHarness(options));
  });
  afterAll(async () => {
    // Unset when beforeAll failed (startGatewayHarness then closed what it had started).
    await (harness as Partial<GatewayHarness>).close?.();
  });
  return harness;
}
