import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { REPRESENTMENT_JOBS } from '@portal/docs-service';
import { CONNECTOR_JOBS } from '../../../services/case/src/connectors/backfill-job';
import { StripeStandIn } from '../../support/stripe-stand-in';
import { createTestEnv, type TestEnv } from '../../support/test-env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers loosely and assert on them
type Json = any;

/**
 * The whole stack through the gateway (tenant by Host, policy, audit, the
 * public webhook route) with the connector's backfill worker, and a Stripe
 * stand-in the services reach through STRIPE_API_BASE, as an operator would
 * set it for a demo.
 */
export interface ConnectorWorld {
  t: TestEnv;
  /** The gateway's address (for multipart upload forms) and a signed-in user's token. */
  gatewayUrl: string;
  token(user: string, host?: string): Promise<string>;
  stack: Stack;
  stripe: StripeStandIn;
  call(
    method: string,
    path: string,
    opts?: { user?: string; host?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Json; raw: string }>;
  close(): Promise<void>;
}

export async function startConnectorWorld(): Promise<ConnectorWorld> {
  const stripe = new StripeStandIn();
  const base = await stripe.start();
  const t = await createTestEnv({ STRIPE_API_BASE: base });
  const stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { jobs: [...CONNECTOR_JOBS, ...REPRESENTMENT_JOBS], pollingIntervalSeconds: 0.5 },
  });
  const tokens = new Map<string, string>();
  const token = async (user: string, host = 'acme.localhost') => {
    const key = `${host}/${user}`;
    let known = tokens.get(key);
    if (!known) {
      const r = await call('POST', '/users/auth/signin', {
        host,
        body: { username: user, password: DEMO_PASSWORD },
      });
      known = r.body?.access_token as string;
      if (!known) throw new Error(`${key} could not sign in: ${r.status} ${r.raw}`);
      tokens.set(key, known);
    }
    return known;
  };
  const call: ConnectorWorld['call'] = async (method, path, opts = {}) => {
    const host = opts.host ?? 'acme.localhost';
    const bearer = opts.user ? await token(opts.user, host) : undefined;
    const payload = opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
    const r = await stack.gateway.inject({
      method: method as 'GET',
      url: `/api${path}`,
      headers: {
        host,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    let body: Json;
    try {
      body = r.body ? JSON.parse(r.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: r.statusCode, body, raw: r.body };
  };
  return {
    t,
    stack,
    stripe,
    call,
    gatewayUrl: stack.gatewayUrl,
    token,
    async close() {
      await stack.close();
      await t.close();
      await stripe.close();
    },
  };
}

/** Polls until `check` holds (jobs run in the background). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('condition not met in time');
}
