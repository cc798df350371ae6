import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 19, audit log: the gateway records every write and every impersonated
 * call (stored by the user service before the call is answered: issue 31,
 * audit-durable.test.ts), and admins read the rows of their scope. Real
 * gateway + services on Postgres and Redis; rows are read right after the
 * answers, with no flush.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();

const demoId = (tenant: string, username: string) =>
  demoUserId(
    demoTenant(tenant),
    DEMO_USERS.find((u) => u.username === username)!,
  );

async function token(tenant: string, username: string) {
  const key = `${tenant}:${username}`;
  if (!tokens.has(key)) tokens.set(key, await signInThroughGateway(stack.gatewayUrl, tenant, username));
  return tokens.get(key)!;
}

/** A call as `username`, with its own request id (answered back in x-request-id). */
async function call(
  tenant: string,
  username: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const requestId = randomUUID();
  const answer = await callGateway(stack.gatewayUrl, tenant, method, path, {
    token: await token(tenant, username),
    body: options.body,
    headers: { 'x-request-id': requestId, ...options.headers },
  });
  return { ...answer, requestId };
}

interface StoredRow {
  tenant: string;
  actor_id: number;
  user_id: number;
  action: string;
  method: string;
  route: string;
  target_ids: Record<string, string>;
  status: number;
  request_id: string;
  created_at: Date;
}

async function gatewayRows(requestId: string): Promise<StoredRow[]> {
  const { rows } = await t.db.query<StoredRow>(
    `select tenant, actor_id, user_id, action, method, route, target_ids, status, request_id, created_at
       from users.audit_log where request_id = $1 and entry_id is not null`,
    [requestId],
  );
  return rows.map((r) => ({ ...r, actor_id: Number(r.actor_id), user_id: Number(r.user_id) }));
}

const audit = async (tenant: string, username: string, query = '') =>
  call(tenant, username, 'GET', `/api/users/audit${query}`);

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
});
afterAll(async () => {
  await stack.close();
  await t.close();
});

describe('the gateway audit trail', () => {
  it('records a write with actor, user, tenant, method, route pattern, targets, status and request id', async () => {
    const target = demoId('acme', 'merchant.user');
    const before = Date.now();
    const r = await call('acme', 'merchant.admin', 'PATCH', `/api/users/users/${target}`, {
      body: { lname: 'Audited', password: 'never-stored' },
    });
    expect(r.status).toBeLessThan(500);
    const rows = await gatewayRows(r.requestId);
    expect(rows).toHaveLength(1);
    const me = demoId('acme', 'merchant.admin');
    expect(rows[0]).toMatchObject({
      tenant: 'acme',
      actor_id: me,
      user_id: me,
      action: 'request',
      method: 'PATCH',
      route: '/api/users/users/:id',
      target_ids: { id: String(target) },
      status: r.status,
      request_id: r.requestId,
    });
    expect(rows[0]!.created_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Never a body: the password sent along is nowhere in the row.
    const { rows: raw } = await t.db.query(
      `select * from users.audit_log where request_id = $1 and entry_id is not null`,
      [r.requestId],
    );
    expect(raw[0]!.ip).toBe('127.0.0.1');
    // Nor in the user service's own row of the edit (its detail is the body, secrets redacted).
    const { rows: all } = await t.db.query(`select * from users.audit_log where request_id = $1`, [
      r.requestId,
    ]);
    expect(all.length).toBeGreaterThanOrEqual(raw.length);
    expect(JSON.stringify(all)).not.toContain('never-stored');
  });

  it('records a refused write too, with its status', async () => {
    const r = await call('acme', 'merchant.user', 'POST', '/api/users/users', { body: { fname: 'x' } });
    expect(r.status).toBe(403);
    expect(await gatewayRows(r.requestId)).toMatchObject([
      { method: 'POST', route: '/api/users/users', status: 403 },
    ]);
  });

  it('records an impersonated (Login As) call, also a GET, with actor and effective user', async () => {
    const effective = demoId('acme', 'merchant.admin');
    const r = await call('acme', 'admin', 'GET', '/api/users/users?limit=1', {
      headers: { 'x-impersonate-user-id': String(effective) },
    });
    expect(r.status).toBe(200);
    const rows = await gatewayRows(r.requestId);
    expect(rows).toMatchObject([
      { actor_id: demoId('acme', 'admin'), user_id: effective, method: 'GET', route: '/api/users/users' },
    ]);
    expect(rows[0]!.actor_id).not.toBe(rows[0]!.user_id);
  });

  it('does not record GETs or whoami of a user acting as themself', async () => {
    const get = await call('acme', 'merchant.admin', 'GET', '/api/users/users?limit=1');
    expect(get.status).toBe(200);
    const whoami = await call('acme', 'merchant.admin', 'POST', '/api/users/whoami');
    expect(whoami.status).toBe(200);
    expect(await gatewayRows(get.requestId)).toEqual([]);
    expect(await gatewayRows(whoami.requestId)).toEqual([]);
  });

  it('names ids under a catch-all rule as targets, never in the route', async () => {
    const r = await call('acme', 'admin', 'GET', '/api/cm/cases/12345', {
      headers: { 'x-impersonate-user-id': String(demoId('acme', 'merchant.user')) },
    });
    expect(await gatewayRows(r.requestId)).toMatchObject([
      { route: '/api/cm/cases/:id', target_ids: { id: '12345' } },
    ]);
  });
});

describe('GET /users/audit', () => {
  let adminWrite: string;
  let merchantWrite: string;
  beforeAll(async () => {
    adminWrite = (
      await call('acme', 'admin', 'PATCH', `/api/users/users/${demoId('acme', 'manager')}`, {
        body: { lname: 'Manager' },
      })
    ).requestId;
    merchantWrite = (
      await call('acme', 'merchant.admin', 'PATCH', `/api/users/users/${demoId('acme', 'merchant.user')}`, {
        body: { lname: 'Scoped' },
      })
    ).requestId;
    await call('northbank', 'admin', 'PATCH', `/api/users/users/${demoId('northbank', 'manager')}`, {
      body: { lname: 'Elsewhere' },
    });
  });

  type Item = {
    request_id: string;
    user: { id: number; username: string } | null;
    actor: { id: number } | null;
    method: string;
    route: string;
    target_ids: Record<string, string>;
    impersonated: boolean;
    ip: string | null;
  };
  const items = (r: { json: Record<string, unknown> }) => r.json.data as Item[];

  it('shows provider admins the whole tenant, newest first, paged on the server', async () => {
    const r = await audit('acme', 'admin', '?limit=500');
    expect(r.status).toBe(200);
    const ids = items(r).map((i) => i.request_id);
    expect(ids).toEqual(expect.arrayContaining([adminWrite, merchantWrite]));
    expect(ids.indexOf(merchantWrite)).toBeLessThan(ids.indexOf(adminWrite));
    const total = (r.json.pagination as { total: number }).total;
    const page = await audit('acme', 'admin', '?limit=2&start=1');
    expect(page.json.pagination).toEqual({ total, limit: 2, start: 1 });
    expect(items(page).map((i) => i.request_id)).toEqual(ids.slice(1, 3));
    // Other tenants' rows never show.
    const { rows } = await t.db.query<{ request_id: string }>(
      `select request_id from users.audit_log where tenant = 'northbank'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(ids).not.toContain(row.request_id);
  });

  it('shows a merchant admin only the rows of users in its subtree', async () => {
    const r = await audit('acme', 'merchant.admin', '?limit=1000');
    expect(r.status).toBe(200);
    const ids = items(r).map((i) => i.request_id);
    expect(ids).toContain(merchantWrite);
    expect(ids).not.toContain(adminWrite);
    const mine = new Set(['merchant.admin', 'merchant.user', 'readonly'].map((u) => demoId('acme', u)));
    for (const i of items(r)) expect(mine.has(i.user!.id)).toBe(true);
    // partnerA's admin sees its merchant's rows as well.
    const partner = items(await audit('acme', 'partner.admin', '?limit=1000')).map((i) => i.request_id);
    expect(partner).toContain(merchantWrite);
    expect(partner).not.toContain(adminWrite);
  });

  it('shows client addresses to provider staff only, in the grid and the CSV (issue 27.G)', async () => {
    const staff = items(await audit('acme', 'admin', '?limit=1000')).find(
      (i) => i.request_id === merchantWrite,
    );
    expect(staff?.ip).toBe('127.0.0.1');
    for (const username of ['merchant.admin', 'readonly', 'partner.admin']) {
      const rows = items(await audit('acme', username, '?limit=1000'));
      expect(
        rows.map((i) => i.request_id),
        username,
      ).toContain(merchantWrite);
      for (const i of rows) expect(i.ip, username).toBeNull();
    }
    const csv = await stack.gateway.inject({
      method: 'GET',
      url: `/api/users/audit.csv?user_id=${demoId('acme', 'merchant.admin')}`,
      headers: { host: 'acme.localhost', authorization: `Bearer ${await token('acme', 'admin')}` },
    });
    const [header, ...rows] = csv.body.trim().split('\r\n');
    expect(header).toBe(
      'Time,Actor,User,Impersonated,API Key,Action,Method,Route,Targets,Status,Request ID,IP',
    );
    expect(rows.some((row) => row.endsWith(',127.0.0.1'))).toBe(true);
  });

  it('is for the roles that administer users only', async () => {
    expect((await audit('acme', 'merchant.user')).status).toBe(403);
    expect((await audit('acme', 'agent')).status).toBe(403);
    expect(
      (await call('acme', 'admin', 'POST', '/api/users/audit/batch', { body: { entries: [] } })).status,
    ).toBe(403);
  });

  it('filters by user, method, target and date range', async () => {
    const manager = demoId('acme', 'manager');
    const byTarget = items(await audit('acme', 'admin', `?target=${manager}&method=PATCH`));
    expect(byTarget.map((i) => i.request_id)).toContain(adminWrite);
    for (const i of byTarget) {
      expect(i.method).toBe('PATCH');
      expect(Object.values(i.target_ids)).toContain(String(manager));
    }
    const byUser = items(
      await audit('acme', 'admin', `?user_id=${demoId('acme', 'merchant.admin')}&limit=1000`),
    );
    expect(byUser.map((i) => i.request_id)).toContain(merchantWrite);
    expect(byUser.map((i) => i.request_id)).not.toContain(adminWrite);
    const byRoute = items(await audit('acme', 'admin', '?target=users/users&action=request&limit=1000'));
    expect(byRoute.map((i) => i.request_id)).toEqual(expect.arrayContaining([adminWrite, merchantWrite]));
    const today = new Date().toISOString().slice(0, 10);
    expect(
      items(await audit('acme', 'admin', `?date_range=${today}|${today}&limit=1000`)).length,
    ).toBeGreaterThan(0);
    const past = await audit('acme', 'admin', '?date_range=2020-01-01|2020-01-31');
    expect(past.json).toEqual({ data: [], pagination: { total: 0, limit: 25, start: 0 } });
    expect((await audit('acme', 'admin', '?date_range=yesterday')).status).toBe(400);
  });

  it('exports CSV with formula cells neutralised', async () => {
    await t.db.query(
      `insert into users.audit_log (tenant, actor_id, user_id, action, method, route, status, request_id)
       values ('acme', $1, $1, 'request', 'POST', '=HYPERLINK("http://evil")', 200, 'csv-formula-row')`,
      [demoId('acme', 'merchant.admin')],
    );
    // inject keeps the Host header and gives the raw text.
    const r = await stack.gateway.inject({
      method: 'GET',
      url: '/api/users/audit.csv?target=HYPERLINK',
      headers: { host: 'acme.localhost', authorization: `Bearer ${await token('acme', 'merchant.admin')}` },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = r.body.trim().split('\r\n');
    // A merchant admin's export has no client addresses (issue 27.G).
    expect(lines[0]).toBe(
      'Time,Actor,User,Impersonated,API Key,Action,Method,Route,Targets,Status,Request ID',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `merchant.admin,merchant.admin,No,,request,POST,"'=HYPERLINK(""http://evil"")"`,
    );
    expect(lines[1]).toContain('csv-formula-row');
    // Out of scope for northbank's admin: the same filter finds nothing there.
    const other = await stack.gateway.inject({
      method: 'GET',
      url: '/api/users/audit.csv?target=HYPERLINK',
      headers: { host: 'northbank.localhost', authorization: `Bearer ${await token('northbank', 'admin')}` },
    });
    expect(other.body.trim().split('\r\n')).toHaveLength(1);
  });
});
