import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, REFRESH_COOKIE, REFRESH_COOKIE_HOST } from '@portal/contracts';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserApp, outbox, publicHeaders, signIn } from './support';
import { buildServiceApp } from '@portal/core';
import { userService } from '../../../services/user/src/index';

/**
 * Issue 20.7: failed sign-ins lock the username for the attacking address
 * only; the owner elsewhere signs in; the owner is mailed once per lock; a
 * throttled answer is 429 with Retry-After. Issue 20.10: cookie attributes.
 */
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

/** Ten wrong passwords from one address, paced (the slow-down window is skipped in the database). */
async function tenFailures(username: string, ip: string, tenant = 'acme') {
  const codes: number[] = [];
  for (let i = 0; i < 10; i++) {
    codes.push((await signIn(app, t, username, 'Wrong#Pass2027', tenant, ip)).statusCode);
    await t.db.query(
      `update users.login_throttle set next_allowed_at = now() - interval '1 second' where next_allowed_at is not null`,
    );
  }
  return codes;
}

const emailOf = async (username: string, tenant = 'acme') =>
  (
    await t.db.query<{ email: string }>(`select email from users.users where tenant = $1 and username = $2`, [
      tenant,
      username,
    ])
  ).rows[0]!.email;

describe('sign-in lock-out per username and address', () => {
  it('locks admin for the attacking address only: the owner signs in from another address', async () => {
    const attacker = '192.0.2.10';
    expect(await tenFailures('admin', attacker)).toEqual(Array(10).fill(401));
    const locked = await signIn(app, t, 'admin', DEMO_PASSWORD, 'acme', attacker);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/temporarily locked/);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.json().data.retry_after).toBe(retryAfter);

    const owner = await signIn(app, t, 'admin', DEMO_PASSWORD, 'acme', '198.51.100.20');
    expect(owner.statusCode).toBe(200);
    // The owner's success does not forgive the attacker's address.
    expect((await signIn(app, t, 'admin', DEMO_PASSWORD, 'acme', attacker)).statusCode).toBe(429);
  });

  it('mails the owner once per lock, not per attempt', async () => {
    const email = await emailOf('partner.admin');
    await tenFailures('partner.admin', '192.0.2.11');
    for (let i = 0; i < 3; i++) await signIn(app, t, 'partner.admin', 'Wrong#Pass2027', 'acme', '192.0.2.11');
    const mails = await outbox(t, email, 2, 1500);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/locked/i);
    expect(mails[0]!.text).toContain('192.0.2.11');
    // A second attacking address within the hour: no second mail.
    await tenFailures('partner.admin', '192.0.2.12');
    expect(await outbox(t, email, 2, 800)).toHaveLength(1);
  });

  it('slows down with 429 and Retry-After during the progressive delay', async () => {
    for (let i = 0; i < 5; i++) await signIn(app, t, 'manager', 'Wrong#Pass2027', 'acme', '192.0.2.13');
    const r = await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '192.0.2.13');
    expect(r.statusCode).toBe(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address is not slowed down.
    expect((await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '192.0.2.14')).statusCode).toBe(200);
  });

  it('caps failures per address across usernames (password spraying)', async () => {
    const ip = '192.0.2.15';
    await t.db.query(
      `insert into users.login_throttle_addr (tenant, ip, failures, updated_at) values ('acme', $1, 99, now())`,
      [ip],
    );
    expect((await signIn(app, t, 'sprayed.one', 'Wrong#Pass2027', 'acme', ip)).statusCode).toBe(401);
    const r = await signIn(app, t, 'agent', DEMO_PASSWORD, 'acme', ip);
    expect(r.statusCode).toBe(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(app, t, 'agent', DEMO_PASSWORD, 'acme', '192.0.2.16')).statusCode).toBe(200);
  });
});

describe('refresh cookie attributes (issue 20.10)', () => {
  it('over HTTP: the old name, Path=/api/users/auth, HttpOnly, SameSite=Strict, not Secure', async () => {
    const r = await signIn(app, t, 'merchant.user', DEMO_PASSWORD, 'acme', '198.51.100.30');
    const raw = String(r.headers['set-cookie']);
    expect(raw).toMatch(new RegExp(`^${REFRESH_COOKIE}=`));
    expect(raw).toMatch(/; Path=\/api\/users\/auth/);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Strict/);
    expect(raw).not.toMatch(/Secure/);
  });

  it('over HTTPS: __Host- prefix, Secure, Path=/, no Domain; the old name is still read and then cleared', async () => {
    const secure = await buildServiceApp(userService, { ...t.deps, env: { ...t.env, COOKIE_SECURE: true } });
    try {
      const r = await signIn(secure, t, 'merchant.user', DEMO_PASSWORD, 'acme', '198.51.100.31');
      expect(r.statusCode).toBe(200);
      const cookies = ([] as string[]).concat(r.headers['set-cookie'] as string | string[]);
      expect(cookies).toHaveLength(1);
      const raw = cookies[0]!;
      expect(raw).toMatch(new RegExp(`^${REFRESH_COOKIE_HOST}=`));
      expect(raw).toMatch(/; Path=\/(;|$)/);
      expect(raw).toMatch(/; Secure/);
      expect(raw).toMatch(/HttpOnly/);
      expect(raw).toMatch(/SameSite=Strict/);
      expect(raw).not.toMatch(/Domain=/i);
      const token = decodeURIComponent(raw.split(';')[0]!.slice(REFRESH_COOKIE_HOST.length + 1));

      // A browser still holding the old name: read, rotated into the new one, the old one cleared.
      const legacy = await secure.inject({
        method: 'POST',
        url: '/users/auth/refresh',
        headers: { ...publicHeaders(t), cookie: `${REFRESH_COOKIE}=${encodeURIComponent(token)}` },
      });
      expect(legacy.statusCode).toBe(200);
      const set = ([] as string[]).concat(legacy.headers['set-cookie'] as string | string[]);
      expect(set.find((c) => c.startsWith(`${REFRESH_COOKIE_HOST}=`))).toMatch(/; Path=\/(;|$)/);
      expect(set.find((c) => c.startsWith(`${REFRESH_COOKIE}=`))).toMatch(
        /Path=\/api\/users\/auth.*(Expires=Thu, 01 Jan 1970|Max-Age=0)|(Expires=Thu, 01 Jan 1970|Max-Age=0).*Path=\/api\/users\/auth/,
      );
    } finally {
      await secure.close();
    }
  });
});
