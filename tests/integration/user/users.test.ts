import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, INVALIDATE_CHANNEL, demoMerchantId, demoTenant } from '@portal/contracts';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserWithCase, demoId, outbox, signIn, systemHeaders, userHeaders } from './support';

let t: TestEnv;
let app: FastifyInstance;
let close: () => Promise<void>;
const published: number[] = [];
beforeAll(async () => {
  t = await createTestEnv();
  ({ app, close } = await buildUserWithCase(t));
  await t.deps.cache.subscribe(INVALIDATE_CHANNEL, (m) => published.push(JSON.parse(m).id));
});
afterAll(async () => {
  await close();
  await t.close();
});

const acme = demoTenant('acme');
const merchant = (key: Parameters<typeof demoMerchantId>[1]) => demoMerchantId(acme, key);
const as = (username: string, extra = {}) => userHeaders(t, 'acme', username, extra);
const get = (url: string, username: string) => app.inject({ method: 'GET', url, headers: as(username) });
const send = (
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  username: string,
  payload?: unknown,
  extra = {},
) => app.inject({ method, url, headers: as(username, extra), payload: payload as object });
const usernames = (body: { data: { username: string }[] }) => body.data.map((u) => u.username).sort();
const userCount = async () =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from users.users`)).rows[0]!.n;
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 40 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  return check();
};

describe('users list and detail', () => {
  it('lists the tenant for provider staff with paging, search, sorting and a count-only mode', async () => {
    const all = (await get('/users/users?limit=100', 'admin')).json();
    expect(all.pagination).toEqual({ total: 11, limit: 100, start: 0 });
    expect(all.data[0]).toMatchObject({
      role: { id: 1, alias: 'cb911_admin' },
      status: { id: 1, name: 'ACTIVE' },
      groups: [0],
      tenant: 'acme',
    });
    expect(all.data[0].merchant.business_name).toMatch(/Chargeback Services/);
    const count = (await get('/users/users?limit=0', 'admin')).json();
    expect(count).toEqual({ data: [], pagination: { total: 11, limit: 0, start: 0 } });
    const search = (await get('/users/users?search=partner', 'admin')).json();
    expect(usernames(search)).toEqual(['partner.admin', 'partner.user']);
    const sorted = (
      await get('/users/users?sort_by=username&sort_order=desc&limit=2&start=1', 'admin')
    ).json();
    expect(sorted.data.map((u: { username: string }) => u.username)).toEqual([
      'partner.user',
      'partner.admin',
    ]);
    const byMerchant = (
      await get(`/users/users?merchant_id=${merchant('merchantA1')}&limit=0`, 'admin')
    ).json();
    expect(byMerchant.pagination.total).toBe(3);
  });

  it('limits partner and merchant roles to their subtree, and merchant users to themselves', async () => {
    const partner = (await get('/users/users?limit=100', 'partner.admin')).json();
    expect(usernames(partner)).toEqual([
      'federated',
      'merchant.admin',
      'merchant.user',
      'newpass',
      'partner.admin',
      'partner.user',
      'readonly',
    ]);
    const merchantAdmin = (await get('/users/users?limit=100', 'merchant.admin')).json();
    expect(usernames(merchantAdmin)).toEqual(['merchant.admin', 'merchant.user', 'readonly']);
    expect(usernames((await get('/users/users', 'merchant.user')).json())).toEqual(['merchant.user']);
    expect((await get(`/users/users/${demoId('acme', 'admin')}`, 'partner.admin')).statusCode).toBe(404);
    expect(
      (await get(`/users/users/${demoId('acme', 'merchant.user')}`, 'partner.admin')).json().username,
    ).toBe('merchant.user');
    // The gateway's 'Login As' check reads a user with a system context.
    const sys = await app.inject({
      method: 'GET',
      url: `/users/users/${demoId('acme', 'manager')}`,
      headers: systemHeaders(t),
    });
    expect(sys.json()).toMatchObject({ status: { id: 1 }, role: { alias: 'cb911_manager' }, tenant: 'acme' });
    const otherTenant = await app.inject({
      method: 'GET',
      url: `/users/users/${demoId('acme', 'manager')}`,
      headers: systemHeaders(t, 'northbank'),
    });
    expect(otherTenant.statusCode).toBe(404);
  });

  it('exports CSV and Excel with the same scope', async () => {
    const csv = await get('/users/users.csv', 'merchant.admin');
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('ID,First Name,Last Name,Username,Email,Role,Company,Status,Read Only');
    expect(lines).toHaveLength(4);
    const xlsx = await get('/users/users.xlsx?export_type=all', 'admin');
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('offers roles per merchant level', async () => {
    const aliases = (r: { json(): { data: { alias: string }[] } }) => r.json().data.map((x) => x.alias);
    expect(aliases(await get(`/users/roles?merchant_id=${merchant('root')}`, 'admin'))).toEqual([
      'cb911_admin',
      'cb911_manager',
      'cb911_agent',
    ]);
    expect(aliases(await get(`/users/roles?merchant_id=${merchant('merchantA1')}`, 'admin'))).toEqual([
      'partner_admin',
      'partner_user',
      'merchant_admin',
      'merchant_user',
    ]);
    expect(
      aliases(await get(`/users/roles?merchant_id=${merchant('merchantA1')}`, 'merchant.admin')),
    ).toEqual(['merchant_admin', 'merchant_user']);
    expect(aliases(await get('/users/roles?restricted=true', 'admin'))).toEqual([
      'cb911_manager',
      'cb911_agent',
    ]);
    expect(
      (await get(`/users/roles?merchant_id=${merchant('merchantB1')}`, 'merchant.admin')).statusCode,
    ).toBe(403);
  });
});

describe('creating and editing users', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    fname: 'Nina',
    lname: 'New',
    username: 'nina.new',
    email: 'nina@bluesky.example',
    role: 5,
    merchant: merchant('merchantA1'),
    ...over,
  });

  it('answers the spec messages for bad input and writes nothing', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ role: 0 }, 'User must be assigned to a role.'],
      [{ fname: ' ' }, 'First name is needed.'],
      [{ lname: '' }, 'Last name is needed.'],
      [{ email: 'not-an-email' }, 'Email is needed.'],
      [{ email: 'nina@gmail.com' }, 'Please enter an allowed email domain.'],
      [{ username: '' }, 'Username cannot be empty.'],
      [{ username: 'admin' }, 'This username is already taken.'],
    ];
    for (const [over, message] of cases) {
      const r = await send('POST', '/users/users', 'merchant.admin', body(over));
      expect(r.json().message, JSON.stringify(over)).toBe(message);
      expect(r.statusCode).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
    }
    const missing = await send('POST', '/users/users', 'merchant.admin', { fname: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(await userCount()).toBe(before);
  });

  it('enforces the role rules', async () => {
    expect((await send('POST', '/users/users', 'merchant.admin', body({ role: 2 }))).statusCode).toBe(403);
    expect(
      (
        await send(
          'POST',
          '/users/users',
          'merchant.admin',
          body({ merchant: merchant('merchantB1'), email: 'n@northwind.example' }),
        )
      ).statusCode,
    ).toBe(403);
    expect((await send('POST', '/users/users', 'merchant.user', body())).statusCode).toBe(403);
    expect((await send('POST', '/users/users', 'readonly', body())).statusCode).toBe(403);
    expect(
      (
        await send(
          'POST',
          '/users/users',
          'manager',
          body({ role: 1, merchant: merchant('root'), email: 'x@example.com' }),
        )
      ).statusCode,
    ).toBe(403);
    expect((await send('POST', '/users/users', 'admin', body({ role: 1 }))).json().message).toBe(
      'This role cannot be assigned to users of this merchant.',
    );
  });

  it('creates a user with a mailed temporary password that must be replaced at first sign-in', async () => {
    const r = await send('POST', '/users/users', 'merchant.admin', body());
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({
      username: 'nina.new',
      role: { id: 5 },
      status: { id: 1 },
      groups: [0],
      merchant: { id: merchant('merchantA1') },
    });
    const [mail] = await outbox(t, 'nina@bluesky.example');
    const temporary = /Temporary password: (\S+)/.exec(mail!.text)![1]!;
    const first = await signIn(app, t, 'nina.new', temporary);
    expect(first.json().challenge).toBe('NEW_PASSWORD_REQUIRED');
    const audit = await t.db.query(`select actor_id, action from users.audit_log where target_user_id = $1`, [
      r.json().id,
    ]);
    expect(audit.rows).toEqual([{ actor_id: demoId('acme', 'merchant.admin'), action: 'user.create' }]);
  });

  it('keeps the case service assignee list current for roles 8 and 9', async () => {
    const r = await send(
      'POST',
      '/users/users',
      'admin',
      body({ username: 'new.agent', role: 9, merchant: merchant('root'), email: 'agent2@example.com' }),
    );
    expect(r.statusCode).toBe(201);
    const { rows } = await t.db.query(`select username, role_id from cases.assignees where id = $1`, [
      r.json().id,
    ]);
    expect(rows).toEqual([{ username: 'new.agent', role_id: 9 }]);
  });

  it('edits a user; nobody changes their own role', async () => {
    const id = demoId('acme', 'merchant.user');
    const r = await send('PATCH', `/users/users/${id}`, 'merchant.admin', {
      fname: 'Maxine',
      is_read_only: true,
    });
    expect(r.json()).toMatchObject({ fname: 'Maxine', is_read_only: true });
    expect(await waitFor(() => published.includes(id))).toBe(true);
    const self = await send('PATCH', `/users/users/${demoId('acme', 'merchant.admin')}`, 'merchant.admin', {
      role: 5,
    });
    expect(self.json().message).toBe('You cannot do this on your own account.');
    const ownName = await send(
      'PATCH',
      `/users/users/${demoId('acme', 'merchant.admin')}`,
      'merchant.admin',
      { lname: 'Adams' },
    );
    expect(ownName.statusCode).toBe(200);
    const badDomain = await send('PATCH', `/users/users/${id}`, 'merchant.admin', {
      email: 'max@elsewhere.example',
    });
    expect(badDomain.json().message).toBe('Please enter an allowed email domain.');
  });
});

describe('lock, unlock and temporary password', () => {
  it('locks (ending sessions) and unlocks, never one’s own account', async () => {
    const id = demoId('acme', 'partner.user');
    await signIn(app, t, 'partner.user');
    const lock = await send('POST', `/users/users/${id}/lock`, 'partner.admin');
    expect(lock.json()).toEqual({ message: 'User has been successfully locked.' });
    const live = await t.db.query(
      `select count(*)::int as n from users.refresh_tokens where user_id = $1 and revoked_at is null`,
      [id],
    );
    expect(live.rows[0]).toEqual({ n: 0 });
    const refused = await signIn(app, t, 'partner.user');
    expect(refused.json().message).toBe('Your account is locked. Please contact your administrator.');
    expect((await send('POST', '/users/whoami', 'partner.user')).statusCode).toBe(401);
    expect((await send('POST', `/users/users/${id}/enable`, 'partner.admin')).json()).toEqual({
      message: 'User has been successfully unlocked.',
    });
    expect((await signIn(app, t, 'partner.user')).statusCode).toBe(200);
    const self = await send('POST', `/users/users/${demoId('acme', 'partner.admin')}/lock`, 'partner.admin');
    expect(self.statusCode).toBe(403);
    expect((await send('POST', `/users/users/${id}/lock`, 'merchant.user')).statusCode).toBe(404);
  });

  it('resets a password to a mailed temporary one', async () => {
    const r = await send('POST', '/users/pass', 'admin', { username: 'agent' });
    expect(r.json()).toEqual({ message: 'Successfully reset user: Alex Agent' });
    const [mail] = await outbox(t, 'agent@example.com');
    const temporary = /Temporary password: (\S+)/.exec(mail!.text)![1]!;
    expect((await signIn(app, t, 'agent')).statusCode).toBe(401);
    expect((await signIn(app, t, 'agent', temporary)).json().challenge).toBe('NEW_PASSWORD_REQUIRED');
    expect((await send('POST', '/users/pass', 'admin', { username: 'admin' })).statusCode).toBe(403);
    expect((await send('POST', '/users/pass', 'admin', { username: 'federated' })).statusCode).toBe(400);
  });
});

describe('site and MID permissions', () => {
  it('denies and re-allows a resource, reflected in whoami; never for oneself or role 1', async () => {
    const id = demoId('acme', 'merchant.admin');
    const list = (await get(`/users/user/${id}/site-permissions`, 'admin')).json().data;
    const users = list.find((p: { alias: string }) => p.alias === 'USERS');
    expect(users).toMatchObject({ isChecked: true, is_active: true });
    const off = await send('DELETE', `/users/${id}/resources/${users.id}`, 'admin');
    expect(off.json()).toEqual({ message: 'Site permission was successfully updated.' });
    const profile = (await send('POST', '/users/whoami', 'merchant.admin')).json();
    expect(profile.deny_resources).toEqual(['USERS']);
    expect(profile.resources.map((r: { alias: string }) => r.alias)).not.toContain('USERS');
    await send('POST', `/users/${id}/resources`, 'admin', { resource_id: users.id, is_allowed: true });
    expect((await send('POST', '/users/whoami', 'merchant.admin')).json().deny_resources).toEqual([]);
    const edit = list.find((p: { alias: string }) => p.alias === 'CREATE_MERCHANT');
    await send('PUT', `/users/${id}/resources/${edit.id}`, 'admin', { is_allowed: true });
    // Spec 3 §7 allows POST on the same path: it sets the same row.
    await send('POST', `/users/${id}/resources/${edit.id}`, 'admin', { is_allowed: false });
    expect((await send('POST', '/users/whoami', 'merchant.admin')).json().allow_resources).toEqual([
      'case-builder',
    ]);
    await send('POST', `/users/${id}/resources/${edit.id}`, 'admin', { is_allowed: true });
    // The demo merchant.admin also holds the case-builder role as a per-user grant (seed, issue 13).
    expect((await send('POST', '/users/whoami', 'merchant.admin')).json().allow_resources.sort()).toEqual([
      'CREATE_MERCHANT',
      'case-builder',
    ]);
    expect(
      (
        await send('POST', `/users/${demoId('acme', 'admin')}/resources`, 'manager', {
          resource_id: 1,
          is_allowed: false,
        })
      ).statusCode,
    ).toBe(403);
    const self = await send('POST', `/users/${demoId('acme', 'manager')}/resources`, 'manager', {
      resource_id: 1,
      is_allowed: false,
    });
    expect(self.json().message).toBe('Site permissions cannot be changed for yourself or for an Admin user.');
  });

  it('sets MID allow and exclude lists', async () => {
    const id = demoId('acme', 'readonly');
    const r = await send('PUT', `/users/users/${id}/mids`, 'merchant.admin', {
      mids: ['4000111', '4000112'],
      exclude_mids: [],
    });
    expect(r.json()).toEqual({ message: 'Mid permissions were successfully updated.' });
    expect((await send('POST', '/users/whoami', 'readonly')).json()).toMatchObject({
      mids_allowed: ['4000111', '4000112'],
      mids_count: 2,
    });
    const both = await send('PUT', `/users/users/${id}/mids`, 'merchant.admin', {
      mids: ['1'],
      exclude_mids: ['1'],
    });
    expect(both.statusCode).toBe(400);
    expect((await get(`/users/users/${id}/mids`, 'merchant.admin')).json()).toEqual({
      mids: ['4000111', '4000112'],
      exclude_mids: [],
    });
  });
});

describe('profile: login history, IP lock, notifications, email', () => {
  it('lists login history, unique per IP, and locks an IP', async () => {
    await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '198.51.100.1');
    await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '198.51.100.1');
    await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '198.51.100.2');
    const id = demoId('acme', 'manager');
    const all = (await get(`/users/users/${id}/login-history`, 'manager')).json();
    expect(all.pagination.total).toBe(3);
    const unique = (await get(`/users/users/${id}/login-history?is_unique=true`, 'manager')).json();
    expect(unique.pagination.total).toBe(2);
    const block = await send('POST', '/users/blockip', 'manager', { ip: '198.51.100.2', is_allowed: false });
    const blockId = block.json().id;
    const after = (await get(`/users/users/${id}/login-history?is_unique=true`, 'manager')).json();
    expect(after.data.find((e: { ip: string }) => e.ip === '198.51.100.2')).toMatchObject({
      is_blocked: true,
      blocked_id: blockId,
    });
    expect((await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '198.51.100.2')).statusCode).toBe(401);
    expect((await send('DELETE', `/users/blockip/${blockId}`, 'manager')).statusCode).toBe(204);
    expect((await signIn(app, t, 'manager', DEMO_PASSWORD, 'acme', '198.51.100.2')).statusCode).toBe(200);
    expect(
      (await send('POST', '/users/blockip', 'manager', { ip: 'not an ip', is_allowed: false })).statusCode,
    ).toBe(400);
    expect((await get(`/users/users/${id}/login-history`, 'merchant.user')).statusCode).toBe(404);
  });

  it('reads and toggles the 4 email notifications', async () => {
    const id = demoId('acme', 'merchant.user');
    const list = (await get(`/users/user/${id}/email-notification`, 'merchant.user')).json().data;
    expect(list).toHaveLength(4);
    const r = await send('PUT', `/users/user/${id}/email-notification/${list[0].id}`, 'merchant.user', {
      is_enabled: false,
    });
    expect(r.json()).toEqual({ message: 'Notification was successfully updated.' });
    expect(
      (await get(`/users/user/${id}/email-notification`, 'merchant.user')).json().data[0].is_enabled,
    ).toBe(false);
  });

  it('changes one’s own email, not for federated users', async () => {
    const ok = await send('POST', `/users/users/${demoId('acme', 'partner.admin')}/email`, 'partner.admin', {
      email: 'parker@summit.example',
    });
    expect(ok.json()).toEqual({ message: 'Your email has been successfully updated.' });
    const bad = await send('POST', `/users/users/${demoId('acme', 'partner.admin')}/email`, 'partner.admin', {
      email: 'nope',
    });
    expect(bad.json().message).toBe('A valid email is required.');
    const fed = await send('POST', `/users/users/${demoId('acme', 'federated')}/email`, 'federated', {
      email: 'f@copperkettle.example',
    });
    expect(fed.statusCode).toBe(403);
  });
});

describe('messages, events, banner, audit', () => {
  it('shows a message until it is acted on', async () => {
    const list = (await get('/users/messages', 'merchant.admin')).json().data;
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({
      show_on: ['/help'],
      actions: { accept: { label: 'Show me', redirect: '/alerts' } },
    });
    expect(
      (await send('POST', `/users/messages/${list[1].id}/action`, 'merchant.admin', { action: 'accept' }))
        .statusCode,
    ).toBe(204);
    expect((await get('/users/messages', 'merchant.admin')).json().data).toEqual([list[0]]);
    expect(
      (await send('POST', `/users/messages/${list[1].id}/action`, 'merchant.admin', { action: 'explode' }))
        .statusCode,
    ).toBe(400);
  });

  it('records tracking events, also from read-only users', async () => {
    const r = await send(
      'POST',
      '/users/events/tracking',
      'readonly',
      { key: 'remedy', case_id: 42, event_name: 'open', action: 'click' },
      { read_only: true },
    );
    expect(r.statusCode).toBe(204);
    const { rows } = await t.db.query(
      `select key, case_id, event_name from users.events where user_id = $1`,
      [demoId('acme', 'readonly')],
    );
    expect(rows).toEqual([{ key: 'remedy', case_id: 42, event_name: 'open' }]);
  });

  it('offers the pro-service banner below Pro service until closed', async () => {
    // federated is a user of Copper Kettle Coffee (Basic service).
    expect((await get('/users/pro-service/banner?page=cb', 'federated')).json()).toMatchObject({
      page: 'cb',
      show: true,
    });
    expect((await get('/users/pro-service/banner?page=cb', 'merchant.user')).json().show).toBe(false);
    await send('POST', '/users/pro-service/banner/close', 'federated', { page: 'cb' });
    expect((await get('/users/pro-service/banner?page=cb', 'federated')).json().show).toBe(false);
  });

  it('audits impersonated writes with both ids', async () => {
    const actor = demoId('acme', 'admin');
    const target = demoId('acme', 'merchant.admin');
    await send(
      'PATCH',
      `/users/users/${demoId('acme', 'merchant.user')}`,
      'merchant.admin',
      { lname: 'Userton' },
      { actor_id: actor },
    );
    const { rows } = await t.db.query(
      `select actor_id, user_id from users.audit_log where action = 'user.update' and actor_id = $1`,
      [actor],
    );
    expect(rows).toContainEqual({ actor_id: actor, user_id: target });
  });
});
