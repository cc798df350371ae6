import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, REFRESH_NO_SESSION } from '@portal/contracts';
import { passwordStats } from '../../../services/user/src/auth/passwords';
import { verifyAccessToken } from '../../../services/user/src/index';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserApp, cookieHeader, demoId, publicHeaders, refreshCookie, signIn } from './support';
import type { FastifyInstance } from 'fastify';

let t: TestEnv;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestEnv();
  app = await buildUserApp(t);
});
afterAll(async () => {
  await app.close();
  await t.close();
});

async function jwks() {
  const response = await app.inject({ method: 'GET', url: '/users/.well-known/jwks.json' });
  return response.json();
}

describe('sign-in', () => {
  it('signs in a demo user with an EdDSA access token for the tenant and an httpOnly refresh cookie', async () => {
    const response = await signIn(app, t, 'admin');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: t.env.ACCESS_TOKEN_TTL_SECONDS });
    const claims = await verifyAccessToken(body.access_token, await jwks(), {
      issuer: t.env.JWT_ISSUER,
      audience: 'acme',
    });
    expect(claims).toMatchObject({
      sub: String(demoId('acme', 'admin')),
      aud: 'acme',
      username: 'admin',
      sv: 1,
    });
    const cookie = refreshCookie(response)!;
    expect(cookie.raw).toMatch(/HttpOnly/i);
    expect(cookie.raw).toMatch(/SameSite=Strict/i);
    expect(cookie.raw).toMatch(/Path=\/api\/users\/auth/);
    expect(cookie.raw).not.toMatch(/Secure/);
    const { rows } = await t.db.query<{ token_hash: string }>(
      `select token_hash from users.refresh_tokens where user_id = $1`,
      [demoId('acme', 'admin')],
    );
    // Stored hashed only.
    expect(rows.map((r) => r.token_hash)).not.toContain(cookie.value);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('publishes the JWKS without a context, with a kid and no private part', async () => {
    const keys = await jwks();
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(keys.keys[0].kid).toBeTruthy();
    expect(keys.keys[0].d).toBeUndefined();
  });

  it('answers the spec messages for empty fields and writes nothing', async () => {
    const before = await t.db.query(`select count(*)::int as n from users.login_history`);
    const noUser = await app.inject({
      method: 'POST',
      url: '/users/auth/signin',
      headers: publicHeaders(t),
      payload: { username: '  ', password: 'x' },
    });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().message).toBe('Username cannot be empty.');
    const noPass = await app.inject({
      method: 'POST',
      url: '/users/auth/signin',
      headers: publicHeaders(t),
      payload: { username: 'admin', password: '' },
    });
    expect(noPass.json().message).toBe('Password cannot be empty.');
    const missing = await app.inject({
      method: 'POST',
      url: '/users/auth/signin',
      headers: publicHeaders(t),
      payload: { username: 'admin' },
    });
    expect(missing.statusCode).toBe(400);
    const after = await t.db.query(`select count(*)::int as n from users.login_history`);
    expect(after.rows).toEqual(before.rows);
  });

  it('refuses a call without a gateway context', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users/auth/signin',
      payload: { username: 'admin', password: DEMO_PASSWORD },
    });
    expect(response.statusCode).toBe(401);
  });

  it('gives one message for unknown users, wrong passwords and federated users, always running argon2', async () => {
    const before = passwordStats.dummyVerifications;
    const unknown = await signIn(app, t, 'nobody-here', 'Whatever#2026');
    const wrong = await signIn(app, t, 'manager', 'Wrong#Password1');
    const federated = await signIn(app, t, 'federated', DEMO_PASSWORD);
    for (const r of [unknown, wrong, federated]) {
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('Incorrect username or password.');
    }
    // unknown and federated verified against the dummy hash (same cost as a real check)
    expect(passwordStats.dummyVerifications - before).toBe(2);
  });

  it('never signs in a user of one tenant on another tenant', async () => {
    const response = await signIn(app, t, 'admin', DEMO_PASSWORD, 'northbank');
    expect(response.statusCode).toBe(200);
    const claims = await verifyAccessToken(response.json().access_token, await jwks(), {
      issuer: t.env.JWT_ISSUER,
      audience: 'northbank',
    });
    expect(claims.sub).toBe(String(demoId('northbank', 'admin')));
    await expect(
      verifyAccessToken(response.json().access_token, await jwks(), {
        issuer: t.env.JWT_ISSUER,
        audience: 'acme',
      }),
    ).rejects.toThrow();
    // A user created only in acme does not exist on northbank.
    await t.db.query(
      `insert into users.users (tenant, username, email, role_id, merchant_id, password_hash) select 'acme', 'only.acme', 'o@example.com', 5, merchant_id, password_hash from users.users where id = $1`,
      [demoId('acme', 'admin')],
    );
    expect((await signIn(app, t, 'only.acme', DEMO_PASSWORD, 'acme')).statusCode).toBe(200);
    const other = await signIn(app, t, 'only.acme', DEMO_PASSWORD, 'northbank');
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe('Incorrect username or password.');
  });

  it('records every sign-in with its IP', async () => {
    await signIn(app, t, 'agent', DEMO_PASSWORD, 'acme', '198.51.100.7');
    await signIn(app, t, 'agent', 'Wrong#Password1', 'acme', '198.51.100.8');
    const { rows } = await t.db.query<{ ip: string; success: boolean }>(
      `select ip, success from users.login_history where user_id = $1 order by id`,
      [demoId('acme', 'agent')],
    );
    expect(rows).toEqual([
      { ip: '198.51.100.7', success: true },
      { ip: '198.51.100.8', success: false },
    ]);
  });
});

describe('refresh tokens', () => {
  it('rotates on use and revokes the family when a used token comes back', async () => {
    const first = refreshCookie(await signIn(app, t, 'partner.admin'))!.value;
    const r1 = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader(first) },
    });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().access_token).toBeTruthy();
    const second = refreshCookie(r1)!.value;
    expect(second).not.toBe(first);
    // Past the grace period (issue 20.6), the stolen first token is replayed: refused, and the legitimate
    // second one dies with its family.
    await t.db.query(
      `update users.refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`,
    );
    const replay = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader(first) },
    });
    expect(replay.statusCode).toBe(401);
    const afterReuse = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader(second) },
    });
    expect(afterReuse.statusCode).toBe(401);
  });

  it('answers no cookie with 204 (no session yet), refuses an empty, unknown, other-tenant or expired one', async () => {
    // The sign-in page's first load: no cookie at all is an answer, not an error the browser would log.
    const none = await app.inject({ method: 'POST', url: '/users/auth/refresh', headers: publicHeaders(t) });
    expect(none.statusCode).toBe(REFRESH_NO_SESSION);
    expect(none.body).toBe('');
    expect(none.headers['set-cookie']).toBeUndefined();
    // A cookie that was sent is judged, even an empty or oversized one: 401 and the cookie is cleared.
    for (const junk of ['', 'y'.repeat(300)]) {
      const broken = await app.inject({
        method: 'POST',
        url: '/users/auth/refresh',
        headers: { ...publicHeaders(t), ...cookieHeader(junk) },
      });
      expect(broken.statusCode).toBe(401);
      expect(broken.json().message).toBe('Your session has expired. Please sign in again.');
      expect(refreshCookie(broken)!.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    }
    const unknown = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader('x'.repeat(43)) },
    });
    expect(unknown.statusCode).toBe(401);
    const token = refreshCookie(await signIn(app, t, 'partner.user'))!.value;
    const otherTenant = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t, 'northbank'), ...cookieHeader(token) },
    });
    expect(otherTenant.statusCode).toBe(401);
    await t.db.query(
      `update users.refresh_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [demoId('acme', 'partner.user')],
    );
    const expired = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader(token) },
    });
    expect(expired.statusCode).toBe(401);
  });

  it('signs out: 204, the cookie is cleared and the token no longer refreshes', async () => {
    const token = refreshCookie(await signIn(app, t, 'merchant.admin'))!.value;
    const out = await app.inject({
      method: 'POST',
      url: '/users/auth/signout',
      headers: { ...publicHeaders(t), ...cookieHeader(token) },
    });
    expect(out.statusCode).toBe(204);
    expect(refreshCookie(out)!.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    const again = await app.inject({
      method: 'POST',
      url: '/users/auth/refresh',
      headers: { ...publicHeaders(t), ...cookieHeader(token) },
    });
    expect(again.statusCode).toBe(401);
    const noCookie = await app.inject({
      method: 'POST',
      url: '/users/auth/signout',
      headers: publicHeaders(t),
    });
    expect(noCookie.statusCode).toBe(204);
  });
});
