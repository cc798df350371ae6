import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, INTERNAL_CONTEXT_HEADER, REFRESH_COOKIE } from '@portal/contracts';
import { signContext, type Db } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import type { FastifyInstance } from 'fastify';
import { transactionWithRetry } from '../../../services/user/src/auth/tokens';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserAppOnPglite, publicHeaders } from './support';

/**
 * Security issue 27 part C: two tabs refreshing at once must never get a 500.
 * Each round: 3 parallel refreshes of the current cookie (all succeed: the
 * grace window hands out siblings), then 3 parallel refreshes of the 3
 * returned sibling cookies. Before the fix, the second step deadlocked in
 * Postgres (each request held its own token row and waited for its siblings'
 * in markRefreshUsed), answering 500 about one round in four.
 *
 * 20 rounds = 120 refreshes of one session: exactly the gateway's per-session
 * limit (SESSION_LIMITS.perSession), so the session is checked afterwards with
 * whoami through the gateway and one refresh at the user service itself.
 */
const ROUNDS = 20;
const PARALLEL = 3;

type Refresh = (
  cookie: string,
) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;

/** The `name=value` of the refresh cookie a response sets. */
function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const list = Array.isArray(header) ? (header as string[]) : [String(header ?? '')];
  const raw = list.find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  if (!raw) throw new Error(`no refresh cookie in ${JSON.stringify(header)}`);
  return raw.split(';')[0]!;
}

/**
 * The rounds; returns every status seen (by round and step, for the failure
 * message) and the last answer. Every answer must be 200 by design: all
 * tokens are presented within REFRESH_GRACE_SECONDS of their first use and
 * none gets more than REFRESH_GRACE_MAX_SIBLINGS children.
 */
async function race(refresh: Refresh, cookie: string) {
  const seen: string[] = [];
  let last;
  for (let round = 0; round < ROUNDS; round++) {
    const first = await Promise.all(Array.from({ length: PARALLEL }, () => refresh(cookie)));
    seen.push(...first.map((r) => `${round}a:${r.statusCode}`));
    const siblings = first.filter((r) => r.statusCode === 200).map(cookieOf);
    expect(new Set(siblings).size).toBe(siblings.length);
    const second = await Promise.all(siblings.map((c) => refresh(c)));
    seen.push(...second.map((r) => `${round}b:${r.statusCode}`));
    last = second.find((r) => r.statusCode === 200) ?? first.find((r) => r.statusCode === 200);
    if (!last) break;
    cookie = cookieOf(last);
  }
  return { seen, bad: seen.filter((s) => !s.endsWith(':200')), last, cookie };
}

describe('parallel refreshes of sibling cookies through the gateway (Postgres)', () => {
  let t: TestEnv;
  let stack: Stack;
  beforeAll(async () => {
    t = await createTestEnv();
    stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  });
  afterAll(async () => {
    await stack?.close();
    await t?.close();
  });

  const api = (path: string, headers: Record<string, string>, body?: unknown) =>
    stack.gateway.inject({
      method: 'POST',
      url: `/api${path}`,
      remoteAddress: '198.51.100.27',
      headers: {
        host: 'acme.localhost',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });

  it(`${ROUNDS} rounds of ${PARALLEL} + ${PARALLEL} parallel refreshes: never a 5xx, the session goes on`, async () => {
    const signin = await api(
      '/users/auth/signin',
      {},
      { username: 'merchant.admin', password: DEMO_PASSWORD },
    );
    expect(signin.statusCode, signin.body).toBe(200);
    const family = cookieOf(signin)
      .slice(REFRESH_COOKIE.length + 1)
      .split('.')[0]!;

    const { seen, bad, last, cookie } = await race(
      (c) => api('/users/auth/refresh', { cookie: c }),
      cookieOf(signin),
    );
    expect(bad, seen.join(' ')).toEqual([]);
    expect(seen).toHaveLength(ROUNDS * PARALLEL * 2);

    // The session goes on: the last access token is accepted at the gateway, the family is not revoked,
    // and the last cookie still refreshes (at the service: the gateway's per-session budget is spent).
    const access = (JSON.parse(last!.body) as { access_token: string }).access_token;
    expect((await api('/users/whoami', { authorization: `Bearer ${access}` })).statusCode).toBe(200);
    const { rows } = await t.db.query<{ revoked: number }>(
      `select count(*) filter (where revoked_at is not null)::int as revoked from users.refresh_tokens where family_id = $1`,
      [family],
    );
    expect(rows[0]!.revoked).toBe(0);
    const again = await stack.services.user.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), cookie },
    });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('parallel refreshes of sibling cookies on the embedded PGlite', () => {
  let db: Db;
  let app: FastifyInstance;
  const secret = 'pglite-refresh-concurrency-secret-0123456789';
  beforeAll(async () => {
    ({ db, app } = await buildUserAppOnPglite(secret, 'user-refresh-race-'));
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const headers = () => ({
    [INTERNAL_CONTEXT_HEADER]: signContext(
      {
        tenant: 'acme',
        user_id: null,
        actor_id: null,
        username: null,
        roles: [],
        merchant_id: null,
        read_only: false,
        mids_allowed: [],
        mids_excluded: [],
        request_id: 'r',
        kind: 'public',
      },
      secret,
    ),
  });

  it(`${ROUNDS} rounds of ${PARALLEL} + ${PARALLEL} parallel refreshes all succeed`, async () => {
    const signin = await app.inject({
      method: 'POST',
      url: '/users/auth/signin',
      headers: headers(),
      payload: { username: 'admin', password: DEMO_PASSWORD },
    });
    expect(signin.statusCode, signin.body).toBe(200);
    const { seen, bad, cookie } = await race(
      (c) => app.inject({ method: 'POST', url: '/users/auth/refresh', headers: { ...headers(), cookie: c } }),
      cookieOf(signin),
    );
    expect(bad, seen.join(' ')).toEqual([]);
    const again = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...headers(), cookie },
    });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('transactionWithRetry', () => {
  /** A db whose transaction fails with the given errors first, then answers. */
  const failing = (...errors: unknown[]) => {
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      transaction: async <T>(fn: (tx: never) => Promise<T>) => {
        const error = errors[calls++];
        if (error) throw error;
        return fn(undefined as never);
      },
    };
  };
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
  const serialization = Object.assign(new Error('could not serialize access'), { code: '40001' });

  it('runs the transaction once more after a deadlock or a serialization failure', async () => {
    for (const error of [deadlock, serialization]) {
      const db = failing(error);
      expect(await transactionWithRetry(db, async () => 'ok')).toBe('ok');
      expect(db.calls).toBe(2);
    }
  });

  it('retries once only, and never on another error', async () => {
    const twice = failing(deadlock, deadlock);
    await expect(transactionWithRetry(twice, async () => 'ok')).rejects.toBe(deadlock);
    expect(twice.calls).toBe(2);
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    const other = failing(unique);
    await expect(transactionWithRetry(other, async () => 'ok')).rejects.toBe(unique);
    expect(other.calls).toBe(1);
  });
});
