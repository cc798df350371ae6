import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { createTestEnv, type TestEnv } from './test-env';

/** The whole stack on a test database, called through the gateway as a tenant's browser would. */
export interface FullStack {
  t: TestEnv;
  stack: Stack;
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; host?: string },
  ): Promise<{ status: number; json: () => unknown; body: string }>;
  signIn(username: string, tenant?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startFullStack(): Promise<FullStack> {
  const t = await createTestEnv();
  const stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const call: FullStack['call'] = async (method, path, opts = {}) => {
    const r = await stack.gateway.inject({
      method: method as 'GET',
      url: `/api${path}`,
      headers: {
        host: opts.host ?? 'acme.localhost',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
    });
    return { status: r.statusCode, json: () => r.json() as unknown, body: r.body };
  };
  const tokens = new Map<string, string>();
  return {
    t,
    stack,
    call,
    async signIn(username, tenant = 'acme') {
      const key = `${tenant}/${username}`;
      const known = tokens.get(key);
      if (known) return known;
      const r = await call('POST', '/users/auth/signin', {
        host: `${tenant}.localhost`,
        body: { username, password: DEMO_PASSWORD },
      });
      const token = (r.json() as { access_token?: string }).access_token;
      if (r.status !== 200 || !token) throw new Error(`${key} could not sign in: ${r.status} ${r.body}`);
      tokens.set(key, token);
      return token;
    },
    async close() {
      await stack.close();
      await t.close();
    },
  };
}
