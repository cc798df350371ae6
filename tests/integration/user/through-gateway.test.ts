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
  init: { method?: string; host?: string; headers?: Record<string, string>; body?: string; ip?: string } = {},
) {
  const response = await stack.gateway.inject({
    ...(init.ip ? { remoteAddress: init.ip } : {}),
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

/** A sign-in through the gateway from a given client address; the status code. */
const signInFrom = async (ip: string, username: string, password: string) =>
  (await api('/users/auth/signin', { method: 'POST', ip, body: JSON.stringify({ username, password }) }))
    .status;

describe("someone else's wrong passwords never lock the owner out (issue 27.A)", () => {
  it('50 wrong tries for admin from one address, then the right password from another address: 200', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 50; i++) codes.push(await signInFrom('203.0.113.50', 'admin', 'Wrong#Pass2027'));
    // Refused early, by the gateway (per username and address) or the service (slow-down, then lock).
    expect(codes.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(codes.at(-1)).toBe(429);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(await signInFrom('198.51.100.77', 'admin', DEMO_PASSWORD)).toBe(200);
    // The attacker's address stays closed, even with the right password.
    expect(await signInFrom('203.0.113.50', 'admin', DEMO_PASSWORD)).toBe(429);
  });

  it('past the per-username failure ceiling, only addresses that failed for that username are refused', async () => {
    // One failure each from 60 addresses (a botnet staying under every per-address limit).
    for (let i = 0; i < 60; i++)
      expect(await signInFrom(`192.0.2.${i + 1}`, 'manager', 'Wrong#Pass2027')).toBe(401);
    const again = await api('/users/auth/signin', {
      method: 'POST',
      ip: '192.0.2.1',
      body: JSON.stringify({ username: 'manager', password: 'Wrong#Pass2028' }),
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(60);
    // The owner, from an address without failures, signs in; other usernames are untouched.
    expect(await signInFrom('198.51.100.78', 'manager', DEMO_PASSWORD)).toBe(200);
    expect(await signInFrom('192.0.2.1', 'agent', DEMO_PASSWORD)).toBe(200);
  });
});
