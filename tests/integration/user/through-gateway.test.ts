import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, REFRESH_COOKIE } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
let stack: Stack;
beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
});
afterAll(async () => {
  await stack.close();
  await t.close();
});

/** Through the gateway app (inject keeps the Host header, which fetch drops), proxied to the real services. */
async function api(
  path: string,
  init: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const response = await stack.gateway.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: `/api${path}`,
    headers: {
      host: init.host ?? 'acme.localhost',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body ? { payload: init.body } : {}),
  });
  return {
    status: response.statusCode,
    headers: {
      get: (name: string) => (response.headers[name] === undefined ? null : String(response.headers[name])),
    },
    json: async () => response.json() as unknown,
  };
}

describe('the user service behind the gateway', () => {
  it('signs in, answers whoami, refreshes with the cookie and signs out', async () => {
    const signin = await api('/users/auth/signin', {
      method: 'POST',
      body: JSON.stringify({ username: 'merchant.admin', password: DEMO_PASSWORD }),
    });
    expect(signin.status).toBe(200);
    const { access_token } = (await signin.json()) as { access_token: string };
    const setCookie = signin.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^${REFRESH_COOKIE}=`));
    expect(setCookie).toMatch(/Path=\/api\/users\/auth/);
    const cookie = setCookie.split(';')[0]!;

    const me = await api('/users/whoami', {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      username: 'merchant.admin',
      role: 'merchant_admin',
      merchant: { show_alerts_banner: true },
    });

    const refreshed = await api('/users/auth/refresh', { method: 'POST', headers: { cookie } });
    expect(refreshed.status).toBe(200);
    const next = (refreshed.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(next).not.toBe(cookie);

    const out = await api('/users/auth/signout', { method: 'POST', headers: { cookie: next } });
    expect(out.status).toBe(204);
    expect((await api('/users/auth/refresh', { method: 'POST', headers: { cookie: next } })).status).toBe(
      401,
    );
  });

  it('refuses a token of one tenant on the other tenant host', async () => {
    const signin = await api('/users/auth/signin', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    });
    const { access_token } = (await signin.json()) as { access_token: string };
    const cross = await api('/users/whoami', {
      method: 'POST',
      host: 'northbank.localhost',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(cross.status).toBe(401);
  });

  it('keeps a forced-reset user to the password calls until the password is updated', async () => {
    const signin = await api('/users/auth/signin', {
      method: 'POST',
      body: JSON.stringify({ username: 'forcereset', password: DEMO_PASSWORD }),
    });
    const { access_token } = (await signin.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access_token}` };
    const me = await api('/users/whoami', { method: 'POST', headers: auth });
    expect(((await me.json()) as { must_update_password: boolean }).must_update_password).toBe(true);
    const blocked = await api('/users/users', { headers: auth });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { code: number }).code).toBe(401);
    const change = await api('/users/auth/password', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ current_password: DEMO_PASSWORD, new_password: 'Forced#Pass2027' }),
    });
    expect(change.status).toBe(204);
    const updated = await api('/users/pass/updated', { method: 'POST', headers: auth });
    expect(await updated.json()).toEqual({ success: true });
    // The invalidation reaches the gateway's profile cache within a second.
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await api('/users/users?limit=0', { headers: auth })).status;
    }
    expect(status).toBe(200);
  });
});
