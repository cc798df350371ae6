import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, INVALIDATE_CHANNEL, REFRESH_COOKIE, revokedSessionKey } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Sessions through the real stack (issues 20.6, 20.9, 11.2): refresh races,
 * reuse detection, sign-out revocation of access tokens and the refresh rate
 * limit per session.
 */
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

const OFFICE_IP = '198.51.100.7';
let nextIp = 1;
const freshIp = () => `203.0.113.${nextIp++}`;

async function api(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; ip?: string } = {},
) {
  const response = await stack.gateway.inject({
    method: (init.method ?? 'POST') as 'POST',
    url: `/api${path}`,
    remoteAddress: init.ip ?? OFFICE_IP,
    headers: {
      host: 'acme.localhost',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body ? { payload: JSON.stringify(init.body) } : {}),
  });
  return response;
}

/** The `name=value` of the refresh cookie a response sets. */
function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? (header as string[]) : [String(header ?? '')];
  const raw = list.find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  if (!raw) throw new Error(`no refresh cookie in ${JSON.stringify(header)}`);
  return raw.split(';')[0]!;
}

async function signIn(username: string, ip = freshIp()) {
  const r = await api('/users/auth/signin', { body: { username, password: DEMO_PASSWORD }, ip });
  expect(r.statusCode, r.body).toBe(200);
  return { cookie: cookieOf(r), access: r.json<{ access_token: string }>().access_token };
}

const refresh = (cookie: string, ip = OFFICE_IP) => api('/users/auth/refresh', { headers: { cookie }, ip });

const whoami = (access: string) => api('/users/whoami', { headers: { authorization: `Bearer ${access}` } });

const sidOf = (access: string) =>
  (JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe('refresh token rotation', () => {
  it('two concurrent refreshes with the same cookie both succeed, and the session continues', async () => {
    const { cookie } = await signIn('merchant.admin');
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    // Whichever Set-Cookie the browser's jar keeps last is valid: try each.
    const [ca, cb] = [cookieOf(a), cookieOf(b)];
    const next = await refresh(cb);
    expect(next.statusCode).toBe(200);
    const after = await refresh(cookieOf(next));
    expect(after.statusCode).toBe(200);
    expect((await whoami(after.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    // The other sibling was superseded; within the grace period it still answers (a slow tab).
    expect((await refresh(ca)).statusCode).toBe(200);
  });

  it('a rotated token reused after the grace period ends the family', async () => {
    const { cookie } = await signIn('partner.user');
    const r1 = await refresh(cookie);
    expect(r1.statusCode).toBe(200);
    const current = cookieOf(r1);
    await t.db.query(
      `update users.refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null and user_id = (select id from users.users where tenant = 'acme' and username = 'partner.user')`,
    );
    const replay = await refresh(cookie);
    expect(replay.statusCode).toBe(401);
    expect((await refresh(current)).statusCode).toBe(401);
    // Its access tokens are revoked as well.
    expect((await whoami(r1.json<{ access_token: string }>().access_token)).statusCode).toBe(401);
  });
});

describe('refresh rate limit per session (issue 11.2)', () => {
  it('one user refreshing 60 times in a minute stays signed in', async () => {
    let { cookie } = await signIn('agent');
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await refresh(cookie);
      statuses.push(r.statusCode);
      if (r.statusCode === 200) cookie = cookieOf(r);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('40 users behind one IP each refreshing 5 times stay signed in', async () => {
    const users = [
      'admin',
      'manager',
      'agent',
      'partner.admin',
      'partner.user',
      'merchant.admin',
      'merchant.user',
      'readonly',
    ];
    const sessions: string[] = [];
    for (let i = 0; i < 40; i++) sessions.push((await signIn(users[i % users.length]!)).cookie);
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(sessions.map((c) => refresh(c, OFFICE_IP)));
      answers.forEach((r, i) => {
        statuses.push(r.statusCode);
        if (r.statusCode === 200) sessions[i] = cookieOf(r);
      });
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('limits one session to 120 refreshes a minute, with Retry-After, and sign-in stays strict per IP', async () => {
    let { cookie } = await signIn('merchant.user');
    let limited;
    for (let i = 0; i < 121 && !limited; i++) {
      const r = await refresh(cookie, freshIp());
      if (r.statusCode === 429) limited = r;
      else cookie = cookieOf(r);
    }
    expect(limited?.statusCode).toBe(429);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    // Sign-in keeps its per-IP limit (30 a minute for acme).
    const ip = freshIp();
    const codes: number[] = [];
    for (let i = 0; i < 31; i++)
      codes.push(
        (await api('/users/auth/signin', { body: { username: `nobody${i}`, password: 'x' }, ip })).statusCode,
      );
    expect(codes.at(-1)).toBe(429);
  });
});

describe('sign-out revokes the access token (issue 20.9)', () => {
  it('the access token stops working at once after sign-out, other sessions go on', async () => {
    const one = await signIn('manager');
    const two = await signIn('manager');
    expect((await whoami(one.access)).statusCode).toBe(200);
    expect((await whoami(two.access)).statusCode).toBe(200);
    const started = Date.now();
    expect((await api('/users/auth/signout', { headers: { cookie: one.cookie } })).statusCode).toBe(204);
    let status = 200;
    while (status === 200 && Date.now() - started < 1000) {
      status = (await whoami(one.access)).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    expect((await whoami(two.access)).statusCode).toBe(200);
  });

  it('a gateway that missed the message reads the Redis marker', async () => {
    const s = await signIn('readonly');
    // Written as the user service does, without the pub/sub message: first sight of this sid reads Redis.
    await t.deps.cache.set(revokedSessionKey('acme', sidOf(s.access)), '1', 60);
    expect((await whoami(s.access)).statusCode).toBe(401);
  });

  it('a session message on the invalidation channel is honoured by the gateway', async () => {
    const s = await signIn('partner.admin');
    expect((await whoami(s.access)).statusCode).toBe(200);
    await t.deps.cache.publish(
      INVALIDATE_CHANNEL,
      JSON.stringify({ tenant: 'acme', kind: 'session', id: sidOf(s.access) }),
    );
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await whoami(s.access)).statusCode;
    }
    expect(status).toBe(401);
  });

  it('forwards only the refresh cookie to the user service, under either name', async () => {
    const { cookie } = await signIn('merchant.admin');
    const r = await refresh(`theme=dark; ${cookie}; other=1`);
    expect(r.statusCode).toBe(200);
  });
});
