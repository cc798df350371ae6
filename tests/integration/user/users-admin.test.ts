import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { DEMO_USERS, demoMerchantId, demoTenant, demoUserId, ROLES } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 16: users administration through the real gateway, user and case
 * services on Postgres and Redis: MID permissions at the spec's /cm paths
 * (active MIDs only, scope, read-only, own account), exports streamed with
 * formula neutralisation, and the refusals of spec 3 §2/§4/§5 with the
 * spec's messages.
 */
// exceljs is a dependency of the user service, not of the tests package.
const ExcelJS = createRequire(new URL('../../../services/user/package.json', import.meta.url))('exceljs') as {
  Workbook: new () => {
    xlsx: { load(data: Buffer): Promise<unknown> };
    worksheets: { getRow(n: number): { getCell(n: number): { value: unknown } } }[];
  };
};

let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const acme = demoTenant('acme');
const id = (username: string) =>
  demoUserId(
    acme,
    DEMO_USERS.find((u) => u.username === username)!,
  );
const merchant = (key: Parameters<typeof demoMerchantId>[1]) => demoMerchantId(acme, key);

async function token(username: string) {
  let tk = tokens.get(username);
  if (!tk) {
    tk = await signInThroughGateway(stack.gatewayUrl, 'acme', username);
    tokens.set(username, tk);
  }
  return tk;
}
async function call(username: string, method: string, path: string, body?: unknown) {
  return callGateway(stack.gatewayUrl, 'acme', method, `/api${path}`, {
    token: await token(username),
    ...(body === undefined ? {} : { body }),
  });
}

/** Two MIDs of merchantA1 (merchant.admin's company): one made active (status 2), one inactive. */
let activeMid: { id: number; mid: string };
let inactiveMid: { id: number; mid: string };
/** A MID of another partner's merchant (outside merchantA1's subtree), active. */
let foreignMid: { id: number; mid: string };

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const mids = await t.db.query<{ id: string; mid: string }>(
    `select id, mid from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 2`,
    [merchant('merchantA1')],
  );
  const [a, b] = mids.rows.map((r) => ({ id: Number(r.id), mid: r.mid }));
  activeMid = a!;
  inactiveMid = b!;
  await t.db.query(`update cases.mids set status_id = 2 where id = $1`, [activeMid.id]);
  await t.db.query(`update cases.mids set status_id = 1 where id = $1`, [inactiveMid.id]);
  const other = await t.db.query<{ id: string; mid: string }>(
    `select id, mid from cases.mids where tenant_id = 'acme' and merchant_id = $1 order by id limit 1`,
    [merchant('merchantB1')],
  );
  foreignMid = { id: Number(other.rows[0]!.id), mid: other.rows[0]!.mid };
  await t.db.query(`update cases.mids set status_id = 2 where id = $1`, [foreignMid.id]);
});
afterAll(async () => {
  await stack.close();
  await t.close();
});

describe('MID permissions at /cm/mids/permissions (spec 3 §2, §7)', () => {
  it('reads a user with no MIDs as access to all MIDs', async () => {
    const r = await call('merchant.admin', 'GET', `/cm/mids/permissions/${id('merchant.user')}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ user_id: id('merchant.user'), all_mids: true, data: [] });
  });

  it('assigns active MIDs only, of the user’s own company, and clears them again', async () => {
    const user = id('merchant.user');
    const inactive = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${user}`, {
      mids: [inactiveMid.mid],
    });
    expect(inactive.status).toBe(400);
    expect(inactive.json.message).toBe('Only active MIDs can be assigned.');
    const foreign = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${user}`, {
      mids: [foreignMid.mid],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json.message).toBe('MID not found.');
    // Nothing was written by the refusals.
    expect((await call('merchant.admin', 'GET', `/cm/mids/permissions/${user}`)).json.all_mids).toBe(true);

    const ok = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${user}`, {
      mids: [String(activeMid.id)],
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ message: 'Mid permissions were successfully updated.' });
    const view = await call('merchant.admin', 'GET', `/cm/mids/permissions/${user}`);
    expect(view.json).toMatchObject({
      all_mids: false,
      data: [{ id: activeMid.id, mid: activeMid.mid, status_id: 2, is_excluded: false }],
    });
    // The restriction reaches the user's own profile (and so every signed context).
    const me = await call('merchant.user', 'POST', '/users/whoami');
    expect(me.json.mids_allowed).toEqual([activeMid.mid]);

    const cleared = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${user}`, { mids: [] });
    expect(cleared.status).toBe(200);
    expect((await call('merchant.admin', 'GET', `/cm/mids/permissions/${user}`)).json.all_mids).toBe(true);
  });

  it('adds one MID with POST /cm/mids/{id}/permissions/{userId}, allowed or excluded', async () => {
    const user = id('merchant.user');
    const add = await call('merchant.admin', 'POST', `/cm/mids/${activeMid.id}/permissions/${user}`, {
      is_excluded: false,
    });
    expect(add.status).toBe(200);
    const refused = await call('merchant.admin', 'POST', `/cm/mids/${inactiveMid.id}/permissions/${user}`, {
      is_excluded: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe('Only active MIDs can be assigned.');
    const exclude = await call('merchant.admin', 'POST', `/cm/mids/${inactiveMid.id}/permissions/${user}`, {
      is_excluded: true,
    });
    expect(exclude.status).toBe(200);
    const view = await call('merchant.admin', 'GET', `/cm/mids/permissions/${user}`);
    expect(view.json.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ mid: activeMid.mid, is_excluded: false }),
        expect.objectContaining({ mid: inactiveMid.mid, is_excluded: true }),
      ]),
    );
    await call('merchant.admin', 'PUT', `/cm/mids/permissions/${user}`, { mids: [], exclude_mids: [] });
  });

  it('refuses read-only users, one’s own account, users outside the admin’s scope and non-admins', async () => {
    const readOnly = await call('readonly', 'PUT', `/cm/mids/permissions/${id('merchant.user')}`, {
      mids: [activeMid.mid],
    });
    expect(readOnly.status).toBe(403);
    const own = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${id('merchant.admin')}`, {
      mids: [activeMid.mid],
    });
    expect(own.status).toBe(403);
    expect(own.json.message).toBe('You cannot do this on your own account.');
    // A partner admin's user is above a merchant admin: not found from there.
    const above = await call('merchant.admin', 'PUT', `/cm/mids/permissions/${id('partner.user')}`, {
      mids: [activeMid.mid],
    });
    expect(above.status).toBe(404);
    const nonAdmin = await call('merchant.user', 'PUT', `/cm/mids/permissions/${id('readonly')}`, {
      mids: [activeMid.mid],
    });
    expect(nonAdmin.status).toBe(403);
    const unknown = await call('merchant.admin', 'GET', `/cm/mids/permissions/999999999`);
    expect(unknown.status).toBe(404);
  });
});

describe('users exports (spec 3 §2 Users)', () => {
  it('streams every user of the scope as CSV with formula cells neutralised', async () => {
    await t.db.query(`update users.users set fname = '=HYPERLINK("x")', lname = '+1' where id = $1`, [
      id('merchant.user'),
    ]);
    const r = await callGateway(stack.gatewayUrl, 'acme', 'GET', '/api/users/users.csv?export_type=all', {
      token: await token('admin'),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/csv/);
    expect(r.headers.get('content-disposition')).toMatch(
      /attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const raw = await rawBody('/api/users/users.csv?export_type=all', await token('admin'));
    const lines = raw.trim().split('\r\n');
    const total = (
      await t.db.query<{ n: number }>(`select count(*)::int as n from users.users where tenant = 'acme'`)
    ).rows[0]!.n;
    expect(lines).toHaveLength(total + 1);
    const row = lines.find((l) => l.startsWith(`${id('merchant.user')},`))!;
    expect(row).toContain(`"'=HYPERLINK(""x"")",'+1,merchant.user`);
  });

  it('exports the page only with export_type=page, and Excel only for USERS_EXPORT_BUTTON holders', async () => {
    const page = await rawBody('/api/users/users.csv?export_type=page&start=0&limit=3', await token('admin'));
    expect(page.trim().split('\r\n')).toHaveLength(4);
    const xlsx = await rawBuffer(
      '/api/users/users.xlsx?export_type=all&search=merchant.user',
      await token('admin'),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('ID');
    expect(sheet.getRow(2).getCell(2).value).toBe(`'=HYPERLINK("x")`);
    const refused = await call('merchant.user', 'GET', '/users/users.xlsx');
    expect(refused.status).toBe(403);
  });
});

describe('refusals with the spec’s messages', () => {
  it('never locks, resets or changes site permissions of one’s own account', async () => {
    const lock = await call('merchant.admin', 'POST', `/users/users/${id('merchant.admin')}/lock`);
    expect(lock.status).toBe(403);
    expect(lock.json.message).toBe('You cannot do this on your own account.');
    const reset = await call('merchant.admin', 'POST', '/users/pass', { username: 'merchant.admin' });
    expect(reset.status).toBe(403);
    expect(reset.json.message).toBe('You cannot do this on your own account.');
    const site = await call('admin', 'PUT', `/users/${id('admin')}/resources/1`, { is_allowed: false });
    expect(site.status).toBe(403);
    expect(site.json.message).toBe('Site permissions cannot be changed for yourself or for an Admin user.');
  });

  it('locks and unlocks another user with the spec texts, and resets with the user’s name', async () => {
    const lock = await call('merchant.admin', 'POST', `/users/users/${id('merchant.user')}/lock`);
    expect(lock.json).toEqual({ message: 'User has been successfully locked.' });
    const unlock = await call('merchant.admin', 'POST', `/users/users/${id('merchant.user')}/enable`);
    expect(unlock.json).toEqual({ message: 'User has been successfully unlocked.' });
    const reset = await call('admin', 'POST', '/users/pass', { username: 'partner.user' });
    expect(reset.status).toBe(200);
    expect(reset.json.message).toMatch(/^Successfully reset user: /);
  });

  it('refuses every change from a read-only user', async () => {
    for (const [method, path, body] of [
      ['POST', `/users/users/${id('merchant.user')}/lock`, undefined],
      ['POST', '/users/pass', { username: 'merchant.user' }],
      ['PATCH', `/users/users/${id('merchant.user')}`, { fname: 'X' }],
      [
        'POST',
        '/users/users',
        {
          fname: 'a',
          lname: 'b',
          username: 'ro.new',
          email: 'a@example.com',
          role: ROLES.merchant_user,
          merchant: merchant('merchantA1'),
        },
      ],
      ['PUT', `/users/${id('merchant.user')}/resources/1`, { is_allowed: false }],
    ] as const) {
      const r = await call('readonly', method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    const login = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/whoami', {
      token: await token('readonly'),
      headers: { 'x-impersonate-user-id': String(id('merchant.user')) },
    });
    expect(login.status).toBe(403);
  });

  it('keeps partner and merchant admins inside their scope', async () => {
    const roles = await call('merchant.admin', 'GET', `/users/roles?merchant_id=${merchant('merchantA1')}`);
    expect((roles.json.data as { alias: string }[]).map((r) => r.alias)).toEqual([
      'merchant_admin',
      'merchant_user',
    ]);
    const foreignRoles = await call(
      'merchant.admin',
      'GET',
      `/users/roles?merchant_id=${merchant('merchantB1')}`,
    );
    // Another partner's merchant: refused, whether as unknown (400) or forbidden (403); never listed.
    expect([400, 403]).toContain(foreignRoles.status);
    expect(foreignRoles.json.data).toBeUndefined();
    const create = await call('partner.admin', 'POST', '/users/users', {
      fname: 'Out',
      lname: 'Side',
      username: 'outside.user',
      email: 'out@harbor.example',
      role: ROLES.merchant_user,
      merchant: merchant('merchantB1'),
    });
    expect(create.status).toBe(403);
    const edit = await call('partner.admin', 'PATCH', `/users/users/${id('manager')}`, { fname: 'X' });
    expect([403, 404]).toContain(edit.status);
  });

  it('refuses an email outside the company’s allowed domains, writing nothing', async () => {
    const before = (await t.db.query<{ n: number }>(`select count(*)::int as n from users.users`)).rows[0]!.n;
    const r = await call('merchant.admin', 'POST', '/users/users', {
      fname: 'Dom',
      lname: 'Ain',
      username: 'domain.refused',
      email: 'someone@elsewhere.test',
      role: ROLES.merchant_user,
      merchant: merchant('merchantA1'),
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Please enter an allowed email domain.');
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from users.users`)).rows[0]!.n).toBe(
      before,
    );
  });

  it('lets cb911_admin Login As an active user, never a cb911_admin or oneself', async () => {
    const as = (target: number) =>
      callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/whoami', {
        token: tokens.get('admin')!,
        headers: { 'x-impersonate-user-id': String(target) },
      });
    await token('admin');
    const ok = await as(id('merchant.admin'));
    expect(ok.status).toBe(200);
    expect(ok.json.username).toBe('merchant.admin');
    expect((await as(id('admin'))).status).toBe(403);
    await t.db.query(`update users.users set status_id = 6 where id = $1`, [id('partner.user')]);
    expect((await as(id('partner.user'))).status).toBe(403);
    await t.db.query(`update users.users set status_id = 1 where id = $1`, [id('partner.user')]);
    // A merchant admin may not Login As at all.
    const refused = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/whoami', {
      token: await token('merchant.admin'),
      headers: { 'x-impersonate-user-id': String(id('merchant.user')) },
    });
    expect(refused.status).toBe(403);
  });
});

/** The body as text/bytes (callGateway parses JSON only). */
async function rawBuffer(path: string, tk: string): Promise<Buffer> {
  const { request } = await import('node:http');
  const url = new URL(stack.gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        headers: { host: 'acme.localhost', authorization: `Bearer ${tk}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
async function rawBody(path: string, tk: string) {
  return (await rawBuffer(path, tk)).toString('utf8');
}
