import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId, ROLES } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 20 item 3: 'Login As' may not escalate. The target must be someone
 * the actor may manage (an assignable role inside the actor's subtree; never
 * a cb911_admin; provider staff only for cb911_admin), a read-only actor may
 * not impersonate, and the effective permissions never exceed the actor's.
 * Real gateway + user + case services on Postgres and Redis.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
/** Users created for this file: username -> id, per tenant. */
const extra = new Map<string, number>();

const demoId = (tenant: string, username: string) =>
  demoUserId(
    demoTenant(tenant),
    DEMO_USERS.find((u) => u.username === username)!,
  );
const uid = (tenant: string, username: string) =>
  extra.get(`${tenant}:${username}`) ?? demoId(tenant, username);

const call = (
  tenant: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) => callGateway(stack.gatewayUrl, tenant, method, path, options);

const signIn = (tenant: string, username: string) => signInThroughGateway(stack.gatewayUrl, tenant, username);

/** A user with the demo password (hash copied from a demo user), created straight in the database. */
async function addUser(
  tenant: string,
  username: string,
  role: keyof typeof ROLES,
  merchant: 'root' | 'partnerA' | 'partnerB' | 'merchantA1' | 'merchantB1',
  options: { readOnly?: boolean; email?: string } = {},
) {
  const { rows } = await t.db.query<{ id: string }>(
    `insert into users.users (tenant, username, email, fname, lname, role_id, merchant_id, status_id, is_read_only,
                              password_hash, password_changed_at)
     select $1, $2, $7, 'Test', $2, $3, $4, 1, $5, password_hash, now()
       from users.users where id = $6 returning id`,
    [
      tenant,
      username,
      ROLES[role],
      demoMerchantId(demoTenant(tenant), merchant),
      options.readOnly ?? false,
      demoId(tenant, 'admin'),
      options.email ?? `${username}@example.com`,
    ],
  );
  const id = Number(rows[0]!.id);
  await t.db.query(`insert into users.user_groups (user_id, group_id) values ($1, 0)`, [id]);
  extra.set(`${tenant}:${username}`, id);
  return id;
}

beforeAll(async () => {
  t = await createTestEnv({ UPSTREAM_TIMEOUT_MS: '3000' });
  // Extra actors and targets: another admin, partner admins inside and outside partnerA, read-only Login As roles,
  // a partner admin without EDIT_MID and one limited to a MID.
  await addUser('acme', 'admin2', 'cb911_admin', 'root');
  await addUser('acme', 'admin.ro', 'cb911_admin', 'root', { readOnly: true });
  await addUser('northbank', 'pa.peer', 'partner_admin', 'partnerA', { email: 'pa.peer@harbor.example' });
  await addUser('northbank', 'pa.outside', 'partner_admin', 'partnerB');
  await addUser('northbank', 'pu.outside', 'partner_user', 'partnerB');
  await addUser('northbank', 'ma.outside', 'merchant_admin', 'merchantB1');
  await addUser('northbank', 'pa.ro', 'partner_admin', 'partnerA', { readOnly: true });
  const capped = await addUser('northbank', 'pa.capped', 'partner_admin', 'partnerA');
  await t.db.query(
    `insert into users.user_resources (user_id, resource_id, is_allowed)
     select $1, id, false from users.resources where alias = 'EDIT_MID'`,
    [capped],
  );
  const mid = await t.db.query<{ mid: string }>(
    `select mid from cases.mids where tenant_id = 'northbank' and merchant_id = $1 order by id limit 1`,
    [demoMerchantId(demoTenant('northbank'), 'merchantA1')],
  );
  const limited = await addUser('northbank', 'pa.mids', 'partner_admin', 'partnerA');
  await t.db.query(`insert into users.user_mids (user_id, mid, is_excluded) values ($1, $2, false)`, [
    limited,
    mid.rows[0]!.mid,
  ]);
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const actors: Array<[string, string]> = [
    ['acme', 'admin'],
    ['acme', 'admin.ro'],
    ['acme', 'manager'],
    ['acme', 'partner.admin'],
    ['acme', 'merchant.admin'],
    ['acme', 'readonly'],
    ['northbank', 'admin'],
    ['northbank', 'manager'],
    ['northbank', 'partner.admin'],
    ['northbank', 'merchant.admin'],
    ['northbank', 'merchant.user'],
    ['northbank', 'readonly'],
    ['northbank', 'pa.ro'],
    ['northbank', 'pa.capped'],
    ['northbank', 'pa.mids'],
  ];
  for (const [tenant, u] of actors) tokens.set(`${tenant}:${u}`, await signIn(tenant, u));
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const as = (tenant: string, actor: string, target: number) => ({
  token: tokens.get(`${tenant}:${actor}`)!,
  headers: { 'x-impersonate-user-id': String(target) },
});
const whoamiAs = (tenant: string, actor: string, target: number) =>
  call(tenant, 'POST', '/api/users/whoami', as(tenant, actor, target));

type Row = [tenant: string, actor: string, target: string, status: 200 | 403];
/** Targets named 'other:<user>' are the other tenant's user of that name; 'self' is the actor; 'ghost' does not exist. */
const MATRIX: Row[] = [
  // cb911_admin: anyone of its tenant but an admin and itself.
  ['acme', 'admin', 'admin', 403],
  ['acme', 'admin', 'admin2', 403],
  ['acme', 'admin', 'manager', 200],
  ['acme', 'admin', 'agent', 200],
  ['acme', 'admin', 'partner.admin', 200],
  ['acme', 'admin', 'partner.user', 200],
  ['acme', 'admin', 'merchant.admin', 200],
  ['acme', 'admin', 'merchant.user', 200],
  ['acme', 'admin', 'forcereset', 200],
  ['acme', 'admin', 'other:merchant.user', 403],
  ['acme', 'admin', 'ghost', 403],
  // A read-only admin impersonates nobody.
  ['acme', 'admin.ro', 'merchant.user', 403],
  ['acme', 'admin.ro', 'readonly', 403],
  // Managers, merchant admins and read-only users never 'Login As'.
  ['acme', 'manager', 'agent', 403],
  ['acme', 'manager', 'merchant.user', 403],
  ['northbank', 'manager', 'merchant.user', 403],
  ['acme', 'merchant.admin', 'merchant.user', 403],
  ['northbank', 'merchant.admin', 'merchant.user', 403],
  ['northbank', 'merchant.user', 'merchant.admin', 403],
  ['acme', 'readonly', 'merchant.user', 403],
  ['northbank', 'readonly', 'merchant.user', 403],
  // partner_admin on a standard tenant: never.
  ['acme', 'partner.admin', 'partner.user', 403],
  ['acme', 'partner.admin', 'merchant.user', 403],
  // partner_admin on the payment-processor tenant: only what it manages, inside its subtree.
  ['northbank', 'partner.admin', 'admin', 403],
  ['northbank', 'partner.admin', 'manager', 403],
  ['northbank', 'partner.admin', 'agent', 403],
  ['northbank', 'partner.admin', 'self', 403],
  ['northbank', 'partner.admin', 'pa.peer', 200],
  ['northbank', 'partner.admin', 'pa.outside', 403],
  ['northbank', 'partner.admin', 'partner.user', 200],
  ['northbank', 'partner.admin', 'pu.outside', 403],
  ['northbank', 'partner.admin', 'merchant.admin', 200],
  ['northbank', 'partner.admin', 'merchant.user', 200],
  ['northbank', 'partner.admin', 'readonly', 200],
  ['northbank', 'partner.admin', 'federated', 200],
  ['northbank', 'partner.admin', 'ma.outside', 403],
  ['northbank', 'partner.admin', 'forcereset', 403],
  ['northbank', 'partner.admin', 'other:merchant.user', 403],
  ['northbank', 'partner.admin', 'other:partner.user', 403],
  // A read-only partner admin: nobody.
  ['northbank', 'pa.ro', 'merchant.user', 403],
];

function targetId(tenant: string, actor: string, target: string): number {
  if (target === 'self') return uid(tenant, actor);
  if (target === 'ghost') return 999_999_999;
  if (target.startsWith('other:')) return uid(tenant === 'acme' ? 'northbank' : 'acme', target.slice(6));
  return uid(tenant, target);
}

describe('Login As: who may act as whom', () => {
  it.each(MATRIX)('%s: %s as %s -> %i', async (tenant, actor, target, status) => {
    const id = targetId(tenant, actor, target);
    const r = await call(tenant, 'GET', '/api/cm/cases?limit=0', as(tenant, actor, id));
    expect(r.status).toBe(status);
    if (status === 403) expect(r.json.message).toBeTruthy();
    const who = await whoamiAs(tenant, actor, id);
    expect(who.status).toBe(status);
    if (status === 200) expect(who.json).toMatchObject({ id, impersonated_by: { id: uid(tenant, actor) } });
  });

  it('a northbank partner admin never sees the tenant-wide case list through a staff user', async () => {
    const own = await call('northbank', 'GET', '/api/cm/cases?limit=0', {
      token: tokens.get('northbank:partner.admin')!,
    });
    expect(own.status).toBe(200);
    for (const staff of ['manager', 'agent', 'admin']) {
      const r = await call(
        'northbank',
        'GET',
        '/api/cm/cases?limit=0',
        as('northbank', 'partner.admin', uid('northbank', staff)),
      );
      expect(r.status, staff).toBe(403);
    }
  });

  it('a northbank partner admin cannot use a staff user to assign the manager role', async () => {
    const r = await call('northbank', 'POST', '/api/users/users', {
      ...as('northbank', 'partner.admin', uid('northbank', 'manager')),
      body: {
        fname: 'Esc',
        lname: 'Alation',
        email: 'esc@example.com',
        username: 'escalated.manager',
        role: ROLES.cb911_manager,
        merchant: demoMerchantId(demoTenant('northbank'), 'root'),
      },
    });
    expect(r.status).toBe(403);
    const { rows } = await t.db.query(`select 1 from users.users where username = 'escalated.manager'`);
    expect(rows).toHaveLength(0);
  });

  it('the user service answers the same question for the caller itself', async () => {
    const token = tokens.get('northbank:partner.admin')!;
    const ok = await call(
      'northbank',
      'GET',
      `/api/users/users/${uid('northbank', 'merchant.user')}/impersonation`,
      { token },
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ allowed: true });
    const staff = await call(
      'northbank',
      'GET',
      `/api/users/users/${uid('northbank', 'manager')}/impersonation`,
      { token },
    );
    expect(staff.status).toBe(404); // outside the subtree: not even confirmed
    const outside = await call(
      'northbank',
      'GET',
      `/api/users/users/${uid('northbank', 'forcereset')}/impersonation`,
      { token },
    );
    expect(outside.status).toBe(404);
  });
});

describe('Login As: the effective user never exceeds the actor', () => {
  const aliases = (list: unknown) => new Set((list as { alias: string }[]).map((x) => x.alias));

  it.each([
    ['acme', 'admin', 'agent'],
    ['acme', 'admin', 'merchant.user'],
    ['northbank', 'partner.admin', 'merchant.admin'],
    ['northbank', 'partner.admin', 'partner.user'],
    ['northbank', 'pa.capped', 'merchant.admin'],
  ])('%s: %s as %s: features and resources are within the actor', async (tenant, actor, target) => {
    const me = await call(tenant, 'POST', '/api/users/whoami', { token: tokens.get(`${tenant}:${actor}`)! });
    const who = await whoamiAs(tenant, actor, uid(tenant, target));
    expect(who.status).toBe(200);
    const mine = aliases(me.json.resources);
    for (const a of me.json.allow_resources as string[]) mine.add(a);
    for (const d of me.json.deny_resources as string[]) mine.delete(d);
    const effective = aliases(who.json.resources);
    for (const a of who.json.allow_resources as string[]) effective.add(a);
    for (const d of who.json.deny_resources as string[]) effective.delete(d);
    for (const a of effective) expect(mine.has(a), `resource ${a}`).toBe(true);
    const myFeatures = aliases(me.json.features);
    for (const f of aliases(who.json.features)) expect(myFeatures.has(f), `feature ${f}`).toBe(true);
  });

  it('an actor without EDIT_MID does not get it from a merchant admin who has it', async () => {
    const direct = await call('northbank', 'POST', '/api/users/whoami', {
      token: await signIn('northbank', 'merchant.admin'),
    });
    expect((direct.json.resources as { alias: string }[]).map((r) => r.alias)).toContain('EDIT_MID');
    const who = await whoamiAs('northbank', 'pa.capped', uid('northbank', 'merchant.admin'));
    expect(who.status).toBe(200);
    expect((who.json.resources as { alias: string }[]).map((r) => r.alias)).not.toContain('EDIT_MID');
    const mid = await t.db.query<{ id: string }>(
      `select id from cases.mids where tenant_id = 'northbank' and merchant_id = $1 order by id limit 1`,
      [demoMerchantId(demoTenant('northbank'), 'merchantA1')],
    );
    const r = await call('northbank', 'PATCH', `/api/cm/mids/${mid.rows[0]!.id}`, {
      ...as('northbank', 'pa.capped', uid('northbank', 'merchant.admin')),
      body: { alias: 'escalated' },
    });
    expect(r.status).toBe(403);
  });

  it('a read-only target stays read-only, and a writable target does not make a read-only actor writable', async () => {
    const who = await whoamiAs('northbank', 'partner.admin', uid('northbank', 'readonly'));
    expect(who.json.is_read_only).toBe(true);
    const r = await call('northbank', 'PATCH', `/api/users/users/${uid('northbank', 'merchant.user')}`, {
      ...as('northbank', 'partner.admin', uid('northbank', 'readonly')),
      body: { fname: 'Changed' },
    });
    expect(r.status).toBe(403);
  });

  it("an actor's MID allow-list bounds the impersonated user's MIDs", async () => {
    const me = await call('northbank', 'POST', '/api/users/whoami', {
      token: tokens.get('northbank:pa.mids')!,
    });
    const who = await whoamiAs('northbank', 'pa.mids', uid('northbank', 'merchant.user'));
    expect(who.status).toBe(200);
    expect(who.json.mids_allowed).toEqual(me.json.mids_allowed);
    const bounded = await call(
      'northbank',
      'GET',
      '/api/cm/cases?limit=0',
      as('northbank', 'pa.mids', uid('northbank', 'merchant.user')),
    );
    const wide = await call(
      'northbank',
      'GET',
      '/api/cm/cases?limit=0',
      as('northbank', 'partner.admin', uid('northbank', 'merchant.user')),
    );
    expect(bounded.status).toBe(200);
    expect((bounded.json.pagination as { total: number }).total).toBeLessThanOrEqual(
      (wide.json.pagination as { total: number }).total,
    );
  });

  it('a partner admin as a merchant user sees exactly what that user sees', async () => {
    const own = await call('northbank', 'GET', '/api/cm/cases?limit=0', {
      token: await signIn('northbank', 'merchant.user'),
    });
    const as_ = await call(
      'northbank',
      'GET',
      '/api/cm/cases?limit=0',
      as('northbank', 'partner.admin', uid('northbank', 'merchant.user')),
    );
    expect(as_.status).toBe(200);
    expect(as_.json.pagination).toEqual(own.json.pagination);
  });
});

describe('Login As: answers follow changes', () => {
  it('moving a target out of the subtree ends the impersonation at once', async () => {
    const id = uid('northbank', 'pa.peer');
    expect((await whoamiAs('northbank', 'partner.admin', id)).status).toBe(200);
    const moved = await call('northbank', 'PATCH', `/api/users/users/${id}`, {
      token: tokens.get('northbank:admin')!,
      body: { merchant: demoMerchantId(demoTenant('northbank'), 'partnerB') },
    });
    expect(moved.status).toBe(200);
    await expect.poll(async () => (await whoamiAs('northbank', 'partner.admin', id)).status).toBe(403);
  });
});
