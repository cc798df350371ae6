import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, INVALIDATE_CHANNEL } from '@portal/contracts';
import { demoSsoKeyFile, mintSsoToken, verifyAccessToken } from '../../../services/user/src/index';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserApp, demoId, forgeJwt, outbox, publicHeaders, signIn, userHeaders } from './support';

let t: TestEnv;
let app: FastifyInstance;
const published: string[] = [];
beforeAll(async () => {
  t = await createTestEnv();
  app = await buildUserApp(t);
  await t.deps.cache.subscribe(INVALIDATE_CHANNEL, (m) => published.push(m));
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const post = (url: string, headers: Record<string, string>, payload?: unknown) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });
const jwks = async () => (await app.inject({ method: 'GET', url: '/users/.well-known/jwks.json' })).json();
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 40 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  return check();
};

describe('access-token attacks (verified as the gateway does, with the JWKS)', () => {
  const expected = () => ({ issuer: t.env.JWT_ISSUER, audience: 'acme' });
  const signingKey = () => readFileSync(join(t.env.DATA_DIR, 'keys', 'jwt-signing.pem'), 'utf8');
  const claims = (over: Record<string, unknown> = {}) => ({
    sub: String(demoId('acme', 'admin')),
    aud: 'acme',
    iss: t.env.JWT_ISSUER,
    username: 'admin',
    iat: Math.floor(Date.now() / 1000) - 60,
    exp: Math.floor(Date.now() / 1000) + 600,
    ...over,
  });

  it('accepts a correctly signed token (control)', async () => {
    const kid = (await jwks()).keys[0].kid;
    const token = forgeJwt({ alg: 'EdDSA', kid }, claims(), signingKey());
    await expect(verifyAccessToken(token, await jwks(), expected())).resolves.toMatchObject({
      username: 'admin',
    });
  });

  it('refuses alg none, tampered, expired, wrong-audience and HS256-with-the-public-key tokens', async () => {
    const keys = await jwks();
    const kid = keys.keys[0].kid;
    const real = (await signIn(app, t, 'admin')).json().access_token as string;
    const [h, p, s] = real.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: String(demoId('acme', 'manager')) })).toString('base64url')}.${s}`;
    const attacks = [
      forgeJwt({ alg: 'none', typ: 'JWT' }, claims()),
      tampered,
      forgeJwt({ alg: 'EdDSA', kid }, claims({ exp: Math.floor(Date.now() / 1000) - 10 }), signingKey()),
      forgeJwt({ alg: 'EdDSA', kid }, claims({ aud: 'northbank' }), signingKey()),
      forgeJwt({ alg: 'EdDSA', kid }, claims({ iss: 'someone-else' }), signingKey()),
    ];
    // HS256 keyed with the public key bytes (the classic algorithm-confusion attack).
    const { createHmac } = await import('node:crypto');
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const data = `${enc({ alg: 'HS256', kid })}.${enc(claims())}`;
    attacks.push(
      `${data}.${createHmac('sha256', JSON.stringify(keys.keys[0])).update(data).digest('base64url')}`,
    );
    for (const token of attacks) await expect(verifyAccessToken(token, keys, expected())).rejects.toThrow();
  });
});

describe('new password required at first sign-in', () => {
  it('answers the challenge, enforces the policy, then signs in', async () => {
    const first = await signIn(app, t, 'newpass');
    expect(first.statusCode).toBe(200);
    const { challenge, session } = first.json();
    expect(challenge).toBe('NEW_PASSWORD_REQUIRED');
    const weak = await post('/users/auth/challenge', publicHeaders(t), { session, new_password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must be between 8 and 25 characters.');
    const withName = await post('/users/auth/challenge', publicHeaders(t), {
      session,
      new_password: 'Newpass#2027',
    });
    expect(withName.json().message).toBe('Password cannot be or contain the username.');
    const { rows } = await t.db.query(`select new_password_required from users.users where id = $1`, [
      demoId('acme', 'newpass'),
    ]);
    expect(rows[0]).toEqual({ new_password_required: true });
    const ok = await post('/users/auth/challenge', publicHeaders(t), {
      session,
      new_password: 'Fresh#Start2027',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().access_token).toBeTruthy();
    const reused = await post('/users/auth/challenge', publicHeaders(t), {
      session,
      new_password: 'Other#Start2027',
    });
    expect(reused.statusCode).toBe(401);
    expect((await signIn(app, t, 'newpass', 'Fresh#Start2027')).json().access_token).toBeTruthy();
  });

  it('refuses a session of another tenant', async () => {
    const { session } = (await signIn(app, t, 'newpass', DEMO_PASSWORD, 'northbank')).json();
    const cross = await post('/users/auth/challenge', publicHeaders(t, 'acme'), {
      session,
      new_password: 'Fresh#Start2027',
    });
    expect(cross.statusCode).toBe(401);
  });
});

describe('forgot password', () => {
  it('always answers 204, mails a code only to real accounts, and the code resets the password once', async () => {
    for (const username of ['merchant.admin', 'no-such-user', 'federated']) {
      const r = await post('/users/auth/forgot', publicHeaders(t), { username });
      expect(r.statusCode).toBe(204);
    }
    const [mail] = await outbox(t, 'merchant.admin@bluesky.example');
    expect(mail!.subject).toBe('Your password reset code');
    const code = /verification code is (\d{6})/.exec(mail!.text)![1]!;
    expect(await outbox(t, 'federated@copperkettle.example', 1, 300)).toEqual([]);

    const empty = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'merchant.admin',
      code: ' ',
      new_password: 'Reset#Pass2027',
    });
    expect(empty.json().message).toBe('Verification code cannot be empty.');
    const weak = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'merchant.admin',
      code,
      new_password: 'weakpass',
    });
    expect(weak.statusCode).toBe(400);
    const ok = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'merchant.admin',
      code,
      new_password: 'Reset#Pass2027',
    });
    expect(ok.statusCode).toBe(204);
    const again = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'merchant.admin',
      code,
      new_password: 'Reset#Pass2028',
    });
    expect(again.json().message).toBe('Invalid verification code provided, please try again.');
    expect((await signIn(app, t, 'merchant.admin', 'Reset#Pass2027')).statusCode).toBe(200);
    expect(
      await waitFor(() => published.some((m) => JSON.parse(m).id === demoId('acme', 'merchant.admin'))),
    ).toBe(true);
  });

  it('kills a code after 5 wrong guesses, and answers unknown users identically', async () => {
    await post('/users/auth/forgot', publicHeaders(t), { username: 'partner.user' });
    const [mail] = await outbox(t, 'partner.user@summit.example');
    const code = /verification code is (\d{6})/.exec(mail!.text)![1]!;
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await post('/users/auth/forgot/confirm', publicHeaders(t), {
        username: 'partner.user',
        code: wrong,
        new_password: 'Guess#Pass2027',
      });
      expect(r.json().message).toBe('Invalid verification code provided, please try again.');
    }
    const right = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'partner.user',
      code,
      new_password: 'Guess#Pass2027',
    });
    expect(right.statusCode).toBe(400);
    const unknown = await post('/users/auth/forgot/confirm', publicHeaders(t), {
      username: 'ghost',
      code,
      new_password: 'Guess#Pass2027',
    });
    expect(unknown.json()).toEqual(right.json());
  });
});

describe('password change and forced update', () => {
  it('clears must_update_password only after the password really changed', async () => {
    const h = userHeaders(t, 'acme', 'forcereset');
    const early = await post('/users/pass/updated', h);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ code: 401, message: 'An error occurred resetting password.' });
    const same = await post('/users/auth/password', h, {
      current_password: DEMO_PASSWORD,
      new_password: DEMO_PASSWORD,
    });
    expect(same.json().message).toBe('Current password and new password cannot be the same.');
    const wrong = await post('/users/auth/password', h, {
      current_password: 'Wrong#Pass2027',
      new_password: 'Forced#Pass2027',
    });
    expect(wrong.json().message).toBe('Current password is incorrect.');
    const weak = await post('/users/auth/password', h, {
      current_password: DEMO_PASSWORD,
      new_password: 'nouppercase1#',
    });
    expect(weak.json().message).toBe('Password must contain at least one capital letter.');
    expect(weak.json().data.violations).toEqual(['Password must contain at least one capital letter.']);
    const ok = await post('/users/auth/password', h, {
      current_password: DEMO_PASSWORD,
      new_password: 'Forced#Pass2027',
    });
    expect(ok.statusCode).toBe(204);
    const done = await post('/users/pass/updated', h);
    expect(done.json()).toEqual({ success: true });
    const { rows } = await t.db.query(`select must_update_password from users.users where id = $1`, [
      demoId('acme', 'forcereset'),
    ]);
    expect(rows[0]).toEqual({ must_update_password: false });
  });

  it('refuses password calls for federated users and while impersonating', async () => {
    const fed = await post('/users/auth/password', userHeaders(t, 'acme', 'federated'), {
      current_password: 'X#12345abc',
      new_password: 'Y#12345abc',
    });
    expect(fed.statusCode).toBe(403);
    const imp = await post(
      '/users/auth/password',
      userHeaders(t, 'acme', 'merchant.user', { actor_id: demoId('acme', 'admin') }),
      {
        current_password: DEMO_PASSWORD,
        new_password: 'Taken#Over2027',
      },
    );
    expect(imp.statusCode).toBe(403);
  });
});

describe('throttle and lock-out', () => {
  const sequence = async (username: string, password: string) => {
    const seen: string[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await signIn(app, t, username, password, 'northbank');
      seen.push(`${r.statusCode} ${r.json().message}`);
      // Let the slow-down window pass without sleeping.
      await t.db.query(
        `update users.login_throttle set next_allowed_at = now() - interval '1 second' where next_allowed_at is not null`,
      );
    }
    return seen;
  };

  it('slows down after 5 failures, locks at 10, identically for real and unknown usernames', async () => {
    const real = await sequence('merchant.user', 'Wrong#Pass2027');
    const unknown = await sequence('not.a.user', 'Wrong#Pass2027');
    expect(real).toEqual(unknown);
    expect(real.slice(0, 10)).toEqual(Array(10).fill('401 Incorrect username or password.'));
    // Issue 20.7: a lock is a throttled answer (429 with Retry-After), for this address only.
    expect(real[10]).toMatch(/^429 Sign-in is temporarily locked for your address/);
    // Even the right password is refused while locked.
    const locked = await signIn(app, t, 'merchant.user', DEMO_PASSWORD, 'northbank');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().message).toMatch(/temporarily locked/);
  });

  it('asks to wait during the slow-down window', async () => {
    for (let i = 0; i < 5; i++) await signIn(app, t, 'manager', 'Wrong#Pass2027', 'northbank');
    const r = await signIn(app, t, 'manager', DEMO_PASSWORD, 'northbank');
    expect(r.statusCode).toBe(429);
    expect(r.json().message).toBe('Too many failed sign-in attempts. Please wait a moment and try again.');
  });

  it('lets at most 5 guesses of a parallel burst reach the password check', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => signIn(app, t, 'agent', 'Wrong#Pass2027', 'northbank')),
    );
    const checked = results.filter((r) => r.json().message === 'Incorrect username or password.').length;
    expect(checked).toBeLessThanOrEqual(5);
  });
});

describe('blocked IPs', () => {
  it('refuses a sign-in from an IP blocked for the account (generic message) or for the tenant (403)', async () => {
    await t.db.query(
      `insert into users.blocked_ips (tenant, user_id, ip) values ('acme', $1, '192.0.2.66')`,
      [demoId('acme', 'partner.admin')],
    );
    const blocked = await signIn(app, t, 'partner.admin', DEMO_PASSWORD, 'acme', '192.0.2.66');
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json().message).toBe('Incorrect username or password.');
    expect((await signIn(app, t, 'partner.admin', DEMO_PASSWORD, 'acme', '192.0.2.67')).statusCode).toBe(200);
    await t.db.query(
      `insert into users.blocked_ips (tenant, user_id, ip) values ('acme', null, '192.0.2.99')`,
    );
    const tenantWide = await signIn(app, t, 'admin', DEMO_PASSWORD, 'acme', '192.0.2.99');
    expect(tenantWide.statusCode).toBe(403);
    expect(tenantWide.json().message).toBe('Sign-in from this IP address is not allowed.');
  });
});

describe('single sign-on exchange', () => {
  const key = (tenant: string) => readFileSync(demoSsoKeyFile(t.env.DATA_DIR, tenant), 'utf8');
  const exchange = (token: string, tenant = 'acme') =>
    post('/users/auth/artego', publicHeaders(t, tenant), { token });

  it('signs in the federated user once per token', async () => {
    const token = await mintSsoToken(key('acme'), { tenant: 'acme', username: 'federated' });
    const ok = await exchange(token);
    expect(ok.statusCode).toBe(200);
    const claims = await verifyAccessToken(ok.json().access_token, await jwks(), {
      issuer: t.env.JWT_ISSUER,
      audience: 'acme',
    });
    expect(claims.sub).toBe(String(demoId('acme', 'federated')));
    expect((await exchange(token)).statusCode).toBe(401);
  });

  it('refuses non-federated users, other tenants, expired, unsigned and tampered tokens', async () => {
    const admin = await exchange(await mintSsoToken(key('acme'), { tenant: 'acme', username: 'admin' }));
    expect(admin.json().message).toBe('No single sign-on user matches this token.');
    const other = await exchange(
      await mintSsoToken(key('acme'), { tenant: 'acme', username: 'federated' }),
      'northbank',
    );
    expect(other.statusCode).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    const base = {
      iss: 'https://sso.acme.localhost/demo',
      aud: 'chargeback-portal:acme',
      sub: 'federated',
      username: 'federated',
      jti: 'x1',
    };
    const expired = forgeJwt({ alg: 'EdDSA' }, { ...base, iat: now - 600, exp: now - 300 }, key('acme'));
    const none = forgeJwt({ alg: 'none' }, { ...base, iat: now, exp: now + 60, jti: 'x2' });
    const good = forgeJwt({ alg: 'EdDSA' }, { ...base, iat: now, exp: now + 60, jti: 'x3' }, key('acme'));
    const [h, , s] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...base, username: 'admin', iat: now, exp: now + 60, jti: 'x3' })).toString('base64url')}.${s}`;
    const wrongKey = forgeJwt(
      { alg: 'EdDSA' },
      { ...base, iat: now, exp: now + 60, jti: 'x4' },
      key('northbank'),
    );
    for (const token of [expired, none, tampered, wrongKey]) {
      const r = await exchange(token);
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('The single sign-on token is invalid or has expired.');
    }
  });
});
