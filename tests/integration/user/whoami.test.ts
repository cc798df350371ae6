import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '@portal/core';
import { FEATURE_ALIASES } from '@portal/contracts';
import { userService } from '../../../services/user/src/index';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserWithCase, demoId, userHeaders } from './support';

let t: TestEnv;
let app: FastifyInstance;
let close: () => Promise<void>;
beforeAll(async () => {
  t = await createTestEnv();
  ({ app, close } = await buildUserWithCase(t));
});
afterAll(async () => {
  await close();
  await t.close();
});

const whoami = (tenant: string, username: string, extra = {}) =>
  app.inject({ method: 'POST', url: '/users/whoami', headers: userHeaders(t, tenant, username, extra) });

const aliases = (list: { alias: string }[]) => list.map((f) => f.alias);

describe('POST /users/whoami', () => {
  it("answers the admin's complete profile with merchant data from the case service", async () => {
    const response = await whoami('acme', 'admin');
    expect(response.statusCode).toBe(200);
    const p = response.json();
    expect(p).toMatchObject({
      id: demoId('acme', 'admin'),
      username: 'admin',
      email: 'admin@example.com',
      fname: 'Avery',
      lname: 'Admin',
      role: 'cb911_admin',
      roles: ['cb911_admin'],
      status: 1,
      is_federated: false,
      is_read_only: false,
      theme_variant: 1,
      must_update_password: false,
      impersonated_by: null,
      mids_allowed: [],
      mids_excluded: [],
      allow_resources: [],
      deny_resources: [],
    });
    expect(p.merchant.id).toBe(1_000_001);
    expect(p.merchant.business_name).toMatch(/Chargeback Services/);
    expect(typeof p.merchant.show_alerts_banner).toBe('boolean');
    // The admin's merchant is the tenant's root: every MID of the tenant is under it.
    const mids = await t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.mids where tenant_id = 'acme'`,
    );
    expect(mids.rows[0]!.n).toBeGreaterThan(0);
    expect(p.mids_count).toBe(mids.rows[0]!.n);
    // cb911_admin sees every menu entry.
    expect(aliases(p.features).sort()).toEqual([...FEATURE_ALIASES].sort());
    expect(aliases(p.resources)).toContain('USERS');
    expect(p.resources.find((r: { alias: string }) => r.alias === 'DASHBOARD').url).toBe('/dashboard');
  });

  it('gives each role the features of its menu entries', async () => {
    const user = (await whoami('acme', 'merchant.user')).json();
    expect(aliases(user.features)).toEqual(
      expect.arrayContaining(['dashboard', 'chargebacks', 'reports', 'profile', 'settings', 'help']),
    );
    expect(aliases(user.features)).not.toContain('users');
    expect(aliases(user.features)).not.toContain('features-list');
    expect(aliases(user.resources)).not.toContain('USERS');
    expect(user.merchant.show_alerts_banner).toBe(true);
    const manager = (await whoami('acme', 'manager')).json();
    expect(aliases(manager.features)).toEqual(
      expect.arrayContaining(['qc-review', 'review', 'case-updater', 'users', 'onboarding']),
    );
    const partner = (await whoami('acme', 'partner.admin')).json();
    expect(aliases(partner.features)).toEqual(
      expect.arrayContaining(['users', 'users-create', 'hierarchy', 'onboarding', 'webhooks']),
    );
    expect(aliases(partner.features)).not.toContain('qc-review');
  });

  it('carries the demo kinds: read-only, federated, forced reset and the partner-branded variant', async () => {
    expect((await whoami('acme', 'readonly')).json()).toMatchObject({
      is_read_only: true,
      role: 'merchant_admin',
    });
    expect((await whoami('acme', 'federated')).json()).toMatchObject({ is_federated: true });
    expect((await whoami('acme', 'forcereset')).json()).toMatchObject({ must_update_password: true });
    expect((await whoami('northbank', 'partner.user')).json()).toMatchObject({
      theme_variant: 2,
      id: demoId('northbank', 'partner.user'),
    });
    expect((await whoami('acme', 'partner.user')).json()).toMatchObject({ theme_variant: 1 });
  });

  it('answers the impersonated user with impersonated_by naming the actor', async () => {
    const response = await whoami('acme', 'merchant.user', { actor_id: demoId('acme', 'admin') });
    expect(response.json()).toMatchObject({
      id: demoId('acme', 'merchant.user'),
      impersonated_by: { id: demoId('acme', 'admin'), fname: 'Avery', lname: 'Admin' },
    });
  });

  it('refuses public and system contexts, unknown, other-tenant and locked users', async () => {
    const pub = await app.inject({
      method: 'POST',
      url: '/users/whoami',
      headers: contextHeaders(t.deps.contextSecret, { kind: 'public' }),
    });
    expect(pub.statusCode).toBe(401);
    // The acme admin's id does not exist in northbank.
    const cross = await app.inject({
      method: 'POST',
      url: '/users/whoami',
      headers: contextHeaders(t.deps.contextSecret, {
        tenant: 'northbank',
        kind: 'user',
        user_id: demoId('acme', 'admin'),
        actor_id: demoId('acme', 'admin'),
      }),
    });
    expect(cross.statusCode).toBe(401);
    await t.db.query(`update users.users set status_id = 6 where id = $1`, [demoId('acme', 'agent')]);
    expect((await whoami('acme', 'agent')).statusCode).toBe(401);
  });

  it('answers 502 with a message, never a guessed profile, when the case service is down', async () => {
    const lonely = await buildServiceApp(userService, {
      ...t.deps,
      env: { ...t.env, CASE_SERVICE_URL: 'http://127.0.0.1:9' },
    });
    try {
      const response = await lonely.inject({
        method: 'POST',
        url: '/users/whoami',
        headers: userHeaders(t, 'acme', 'admin'),
      });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('Unable to load merchant data right now. Please try again later.');
    } finally {
      await lonely.close();
    }
  });
});
