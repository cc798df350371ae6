import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  demoTenant,
  demoUserId,
  GRANTABLE_RESOURCES,
  SITE_PERMISSION_NOT_GRANTABLE,
  STAFF_ONLY_RESOURCES,
} from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 20 item 4: site permissions grant only what the actor holds, within
 * the target role's allow-list (GRANTABLE_RESOURCES); staff-only resources
 * never reach partner or merchant users, whether asked through POST, PUT or
 * already stored. Denies stay possible. Real gateway + services.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const resourceIds = new Map<string, number>();

const id = (username: string) =>
  demoUserId(
    demoTenant('acme'),
    DEMO_USERS.find((u) => u.username === username)!,
  );
const rid = (alias: string) => resourceIds.get(alias)!;
const call = (
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) => callGateway(stack.gatewayUrl, 'acme', method, path, options);
const by = (username: string) => ({ token: tokens.get(username)! });
const grant = (actor: string, target: string, alias: string) =>
  call('POST', `/api/users/${id(target)}/resources`, {
    ...by(actor),
    body: { resource_id: rid(alias), is_allowed: true },
  });
const put = (actor: string, target: string, alias: string, allowed: boolean) =>
  call('PUT', `/api/users/${id(target)}/resources/${rid(alias)}`, {
    ...by(actor),
    body: { is_allowed: allowed },
  });
const held = async (username: string) => {
  const r = await call('POST', '/api/users/whoami', by(username));
  const set = new Set((r.json.resources as { alias: string }[]).map((x) => x.alias));
  for (const a of r.json.allow_resources as string[]) set.add(a);
  for (const d of r.json.deny_resources as string[]) set.delete(d);
  return set;
};

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const { rows } = await t.db.query<{ id: number; alias: string }>(`select id, alias from users.resources`);
  for (const r of rows) resourceIds.set(r.alias, Number(r.id));
  for (const u of ['admin', 'manager', 'partner.admin', 'partner.user', 'merchant.admin', 'merchant.user']) {
    const r = await call('POST', '/api/users/auth/signin', {
      body: { username: u, password: DEMO_PASSWORD },
    });
    expect(r.status, u).toBe(200);
    tokens.set(u, r.json.access_token as string);
  }
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('the allow-list', () => {
  it('keeps staff-only resources to provider staff', () => {
    for (const role of ['partner_admin', 'partner_user', 'merchant_admin', 'merchant_user'] as const)
      for (const alias of STAFF_ONLY_RESOURCES) expect(GRANTABLE_RESOURCES[role]).not.toContain(alias);
    expect(GRANTABLE_RESOURCES.cb911_agent).toContain('QC_REVIEW_ADD_ERT');
  });
});

describe('granting site permissions', () => {
  it('the probe: merchant.admin cannot grant its merchant user QC_REVIEW_ADD_ERT (POST or PUT)', async () => {
    const post = await grant('merchant.admin', 'merchant.user', 'QC_REVIEW_ADD_ERT');
    expect(post.status).toBe(403);
    expect(post.json.message).toBe(SITE_PERMISSION_NOT_GRANTABLE);
    expect((await put('merchant.admin', 'merchant.user', 'QC_REVIEW_ADD_ERT', true)).status).toBe(403);
    expect(await held('merchant.user')).not.toContain('QC_REVIEW_ADD_ERT');
    const { rows } = await t.db.query(`select 1 from users.user_resources where user_id = $1`, [
      id('merchant.user'),
    ]);
    expect(rows).toHaveLength(0);
  });

  it('nobody grants a staff-only resource to a partner or merchant user, not even cb911_admin', async () => {
    for (const actor of ['admin', 'manager'])
      for (const target of ['partner.admin', 'partner.user', 'merchant.admin', 'merchant.user'])
        expect((await grant(actor, target, 'QC_REVIEW_ADD_ERT')).status, `${actor} -> ${target}`).toBe(403);
    expect((await grant('partner.admin', 'merchant.user', 'QC_REVIEW_ADD_ERT')).status).toBe(403);
  });

  it('an actor grants what it holds and the role may have', async () => {
    expect((await grant('merchant.admin', 'merchant.user', 'USERS_EXPORT_BUTTON')).status).toBe(200);
    expect(await held('merchant.user')).toContain('USERS_EXPORT_BUTTON');
    expect((await put('partner.admin', 'partner.user', 'EDIT_MERCHANT', true)).status).toBe(200);
    expect(await held('partner.user')).toContain('EDIT_MERCHANT');
    // merchant.admin does not hold CREATE_MERCHANT: it cannot hand it out.
    expect((await grant('merchant.admin', 'merchant.user', 'CREATE_MERCHANT')).status).toBe(403);
    expect(await held('merchant.user')).not.toContain('CREATE_MERCHANT');
  });

  it('a resource denied to the actor can no longer be granted (nor a role default re-allowed) by it', async () => {
    // admin denies EDIT_MID to partner.admin, and to merchant.admin (a role default of merchant admins).
    expect((await put('admin', 'partner.admin', 'EDIT_MID', false)).status).toBe(200);
    expect((await put('admin', 'merchant.admin', 'EDIT_MID', false)).status).toBe(200);
    await expect.poll(async () => (await held('partner.admin')).has('EDIT_MID')).toBe(false);
    expect((await grant('partner.admin', 'partner.user', 'EDIT_MID')).status).toBe(403);
    expect((await put('partner.admin', 'merchant.admin', 'EDIT_MID', true)).status).toBe(403);
    expect(await held('merchant.admin')).not.toContain('EDIT_MID');
  });

  it('denies stay possible for whoever manages the user', async () => {
    const r = await call(
      'DELETE',
      `/api/users/${id('merchant.user')}/resources/${rid('REPORTS')}`,
      by('merchant.admin'),
    );
    expect(r.status).toBe(200);
    expect(await held('merchant.user')).not.toContain('REPORTS');
  });

  it('a staff-only grant already stored counts for nothing: the gateway refuses adding an ERT', async () => {
    await t.db.query(
      `insert into users.user_resources (user_id, resource_id, is_allowed) values ($1, $2, true)
       on conflict (user_id, resource_id) do update set is_allowed = true`,
      [id('merchant.user'), rid('QC_REVIEW_ADD_ERT')],
    );
    // The profile cache is dropped on a user change (a harmless deny elsewhere publishes one).
    await call(
      'DELETE',
      `/api/users/${id('merchant.user')}/resources/${rid('MS_VIEW_DETAILS')}`,
      by('merchant.admin'),
    );
    await expect.poll(async () => (await held('merchant.user')).has('QC_REVIEW_ADD_ERT')).toBe(false);
    const { rows } = await t.db.query<{ id: string }>(
      `select c.id from cases.cases c where c.tenant_id = 'acme' and c.merchant_id = (select merchant_id from users.users where id = $1) order by c.id limit 1`,
      [id('merchant.user')],
    );
    const ert = await call('POST', `/api/ert/case/${rows[0]!.id}/erts`, {
      ...by('merchant.user'),
      body: { note: 'probe' },
    });
    expect(ert.status).toBe(403);
  });

  it('staff still grant staff resources to staff', async () => {
    expect((await put('admin', 'manager', 'cm-view-partner-admin-id', false)).status).toBe(200);
    expect((await put('admin', 'manager', 'cm-view-partner-admin-id', true)).status).toBe(200);
    expect(await held('manager')).toContain('cm-view-partner-admin-id');
  });
});
