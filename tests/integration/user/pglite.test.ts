import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_PASSWORD, INTERNAL_CONTEXT_HEADER } from '@portal/contracts';
import { signContext, type Db } from '@portal/core';
import type { FastifyInstance } from 'fastify';
import { purgeExpired } from '../../../services/user/src/auth/housekeeping';
import { ALL_RESOURCES } from '../../../services/user/src/seed/matrix';
import { buildUserAppOnPglite } from './support';

/** The embedded default (npm start without DATABASE_URL): migrations, seed and the SQL of the main calls on PGlite. */
let db: Db;
let app: FastifyInstance;
const secret = 'pglite-test-secret-pglite-test-secret';
beforeAll(async () => {
  ({ db, app } = await buildUserAppOnPglite(secret, 'user-pglite-'));
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const ctx = (kind: 'public' | 'user', userId: number | null = null) => ({
  [INTERNAL_CONTEXT_HEADER]: signContext(
    {
      tenant: 'acme',
      user_id: userId,
      actor_id: userId,
      username: null,
      roles: [],
      merchant_id: null,
      read_only: false,
      mids_allowed: [],
      mids_excluded: [],
      request_id: 'r',
      kind,
    },
    secret,
  ),
});

it('signs in, refreshes, throttles, mails codes and lists on PGlite', async () => {
  const r = await app.inject({
    method: 'POST',
    url: '/users/auth/signin',
    headers: ctx('public'),
    payload: { username: 'admin', password: DEMO_PASSWORD },
  });
  expect(r.statusCode).toBe(200);
  const cookie = String(r.headers['set-cookie']).split(';')[0]!;
  expect(
    (await app.inject({ method: 'POST', url: '/users/auth/refresh', headers: { ...ctx('public'), cookie } }))
      .statusCode,
  ).toBe(200);
  const codes: number[] = [];
  for (let i = 0; i < 6; i++) {
    codes.push(
      (
        await app.inject({
          method: 'POST',
          url: '/users/auth/signin',
          headers: ctx('public'),
          payload: { username: 'zz', password: 'x' },
        })
      ).statusCode,
    );
  }
  expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
  expect(
    (
      await app.inject({
        method: 'POST',
        url: '/users/auth/forgot',
        headers: ctx('public'),
        payload: { username: 'manager' },
      })
    ).statusCode,
  ).toBe(204);
  expect(
    (await app.inject({ method: 'GET', url: '/users/users?limit=0', headers: ctx('user', 1_000_001) })).json()
      .pagination.total,
  ).toBe(11);
  expect(
    (
      await app.inject({
        method: 'GET',
        url: '/users/users/1000001/login-history?is_unique=true',
        headers: ctx('user', 1_000_001),
      })
    ).statusCode,
  ).toBe(200);
  expect(
    (
      await app.inject({
        method: 'GET',
        url: '/users/user/1000001/site-permissions',
        headers: ctx('user', 1_000_001),
      })
    ).json().data,
  ).toHaveLength(ALL_RESOURCES.length); // every resource of the catalogue, granted or not
  await purgeExpired(app);
}, 60_000);
