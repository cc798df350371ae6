import {
  DEMO_TENANTS,
  DEMO_USERS,
  demoMerchantId,
  demoTenant,
  demoUserId,
  type InternalContext,
} from '@portal/contracts';
import { buildServiceApp } from '@portal/core';
import { SERVICES } from '@portal/runner';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';

export type Ctx = Partial<Omit<InternalContext, 'exp'>>;

/** The context the gateway would sign for a demo user (demo.ts). */
export function demoCtx(tenantId: string, username: string, extra: Ctx = {}): Ctx {
  const tenant = demoTenant(tenantId);
  const user = DEMO_USERS.find((u) => u.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return {
    tenant: tenant.id,
    kind: 'user',
    user_id: demoUserId(tenant, user),
    actor_id: demoUserId(tenant, user),
    username: user.username,
    roles: [user.role],
    merchant_id: demoMerchantId(tenant, user.merchant),
    read_only: user.kind === 'read_only',
    ...extra,
  };
}

export const [ACME, NORTHBANK] = DEMO_TENANTS as [(typeof DEMO_TENANTS)[0], (typeof DEMO_TENANTS)[0]];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers loosely and assert on them
type Json = any;

type FastifyInstance = Awaited<ReturnType<typeof buildServiceApp>>;

export interface CaseApp {
  t: TestEnv;
  app: FastifyInstance;
  /** Injects a call as the given context; JSON body in, parsed JSON out. */
  call(
    method: string,
    url: string,
    ctx: Ctx,
    body?: unknown,
  ): Promise<{ status: number; body: Json; raw: string; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startCaseApp(): Promise<CaseApp> {
  const t = await createTestEnv();
  const app = await buildServiceApp(SERVICES.case.definition, t.deps);
  return {
    t,
    app,
    async call(method, url, ctx, body) {
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers: contextHeaders(t.deps.contextSecret, ctx),
        ...(body === undefined ? {} : { payload: body as object }),
      });
      let parsed: unknown;
      try {
        parsed = response.body ? JSON.parse(response.body) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.statusCode, body: parsed, raw: response.body, headers: response.headers };
    },
    async close() {
      await app.close();
      await t.close();
    },
  };
}
