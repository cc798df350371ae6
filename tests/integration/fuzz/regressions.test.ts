import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { contextWithoutUser } from '@portal/core';
import { SERVICES, startStack, type Stack } from '@portal/runner';
import { contextHeaders } from '../../support/context';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { demoCtx, type Ctx } from '../case/case-app';
import { buildRecordedApp, type FuzzRoute } from './fuzz-support';

/**
 * The reproductions of issue 20 item 5 (a black-box fuzz got 25 x 5xx in
 * 285 requests), each now a clear 400 `{statusCode, error, message}` naming
 * the field, with nothing changed in the database.
 */

const TENANT = 'acme';
const staff = demoCtx(TENANT, 'admin');
const publicCtx: Ctx = contextWithoutUser(TENANT, 'regression', 'public');

let t: TestEnv;
let stack: Stack;
const apps = new Map<string, FastifyInstance>();
const routes: FuzzRoute[] = [];
let caseId: number;
let agentId: number;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely
type Json = any;

async function call(service: string, method: string, url: string, ctx: Ctx, payload?: string) {
  const response = await apps.get(service)!.inject({
    method: method as 'GET',
    url,
    headers: {
      ...contextHeaders(t.deps.contextSecret, ctx),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as Json };
}

/** A 400 in the error shape of design §5 whose message and fields name `field`. */
function expectRefused(answer: { status: number; body: Json }, field: string, message: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(answer.body.message).toMatch(message);
  expect(answer.body.message).toContain(field);
  expect(answer.body.data?.fields?.map((f: { field: string }) => f.field)).toContain(field);
}

beforeAll(async () => {
  t = await createTestEnv({ LOG_LEVEL: 'fatal' });
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const env = {
    ...t.deps.env,
    CASE_SERVICE_URL: stack.serviceUrls.case,
    USER_SERVICE_URL: stack.serviceUrls.user,
    DOCS_SERVICE_URL: stack.serviceUrls.docs,
    BUILDER_SERVICE_URL: stack.serviceUrls.builder,
  };
  for (const name of ['case', 'user'] as const) {
    const built = await buildRecordedApp(name, SERVICES[name].definition, { ...t.deps, env });
    apps.set(name, built.app);
    routes.push(...built.routes);
  }
  const { rows } = await t.db.query<{ id: string }>(
    `select id from cases.cases where tenant_id = $1 order by id limit 1`,
    [TENANT],
  );
  caseId = Number(rows[0]!.id);
  agentId = demoUserId(
    demoTenant(TENANT),
    DEMO_USERS.find((u) => u.username === 'agent')!,
  );
});

afterAll(async () => {
  for (const app of apps.values()) await app.close();
  await stack?.close();
  await t?.close();
});

describe('issue 20 item 5: inputs that reached the database unchecked', () => {
  it('start=1e309 on the case list is a 400 naming start', async () => {
    expectRefused(await call('case', 'GET', '/cm/cases?start=1e309', staff), 'start', /finite number/);
  });

  it('start=1e309 (and Infinity) on every list route is a 400, not a 500', async () => {
    const lists = routes.filter((r) => r.method === 'GET' && r.querystring?.properties?.start);
    expect(lists.length).toBeGreaterThanOrEqual(11);
    for (const route of lists) {
      const url = route.url.replace(/:[A-Za-z]+/g, String(route.service === 'user' ? agentId : caseId));
      // Other required query parameters (e.g. the alert of an alert's history) get a valid id.
      const required = ((route.querystring?.required ?? []) as string[]).filter((p) => p !== 'start');
      const rest = required.map((p) => `&${p}=1`).join('');
      for (const value of ['1e309', 'Infinity', '-1e309', '2147483648']) {
        const answer = await call(route.service, 'GET', `${url}?start=${value}${rest}`, staff);
        expect(answer.status, `${route.url}?start=${value}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(answer.body.message).toContain('start');
      }
    }
  });

  it('merchant_id above the integer range is a 400 naming merchant_id', async () => {
    for (const url of [
      '/cm/cases?merchant_id=99999999999',
      '/cm/mids?merchant_id=99999999999',
      '/cm/gen/descriptors?merchant_id=99999999999',
    ]) {
      expectRefused(await call('case', 'GET', url, staff), 'merchant_id', /must be <= 2147483647/);
    }
    expectRefused(
      await call('user', 'GET', '/users/roles?merchant_id=99999999999', staff),
      'merchant_id',
      /must be <= 2147483647/,
    );
  });

  it('an id path parameter above the integer range is a 400 naming id', async () => {
    expectRefused(await call('case', 'GET', '/cm/cases/99999999999', staff), 'id', /must be <= 2147483647/);
    expectRefused(
      await call('case', 'GET', '/cm/merchants/99999999999', staff),
      'id',
      /must be <= 2147483647/,
    );
    expectRefused(
      await call('user', 'GET', '/users/users/99999999999', staff),
      'id',
      /must be <= 2147483647/,
    );
    // The QC path takes 'next' or an id: a string pattern, bounded the same way.
    const qc = await call('case', 'GET', '/cm/cases/qc/99999999999', staff);
    expect(qc.status).toBe(400);
    expect(qc.body.message).toMatch(/params\/id .*2147483647/);
  });

  it('a NUL character in search or case_no is a 400 naming the field', async () => {
    expectRefused(await call('case', 'GET', '/cm/cases?search=a%00b', staff), 'search', /NUL character/);
    expectRefused(await call('case', 'GET', '/cm/cases?case_no=a%00b', staff), 'case_no', /NUL character/);
    expectRefused(await call('user', 'GET', '/users/users?search=%00', staff), 'search', /NUL character/);
  });

  it('a NUL character in fname is a 400 and the user is unchanged', async () => {
    const before = await t.db.query(`select fname from users.users where id = $1`, [agentId]);
    expectRefused(
      await call('user', 'PATCH', `/users/users/${agentId}`, staff, JSON.stringify({ fname: 'Ev\u0000il' })),
      'fname',
      /NUL character/,
    );
    expectRefused(
      await call(
        'user',
        'POST',
        '/users/users',
        staff,
        JSON.stringify({
          fname: 'a\u0000b',
          lname: 'x',
          username: 'nul.user',
          email: 'nul@example.com',
          role: 1,
          merchant: 1,
        }),
      ),
      'fname',
      /NUL character/,
    );
    const after = await t.db.query(`select fname from users.users where id = $1`, [agentId]);
    expect(after.rows).toEqual(before.rows);
    const created = await t.db.query(`select 1 from users.users where username = 'nul.user'`);
    expect(created.rowCount).toBe(0);
  });

  it('a NUL character in the sign-in username is a 400 at the user service', async () => {
    expectRefused(
      await call(
        'user',
        'POST',
        '/users/auth/signin',
        publicCtx,
        JSON.stringify({ username: 'admin\u0000', password: 'x' }),
      ),
      'username',
      /NUL character/,
    );
  });

  it('a NUL character in the sign-in username through the gateway (no token) is a 400', async () => {
    const answer = await callGateway(stack.gatewayUrl, TENANT, 'POST', '/api/users/auth/signin', {
      body: { username: 'admin\u0000', password: 'x' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(String(answer.json.message)).toMatch(/username .*NUL character/);
  });

  it('verdict_id 2147483648 on PATCH /cm/cases/:id/edit is a 400 and the case is unchanged', async () => {
    const read = () => t.db.query(`select verdict_id, updated_at from cases.cases where id = $1`, [caseId]);
    const before = await read();
    for (const raw of ['2147483648', '1e309', '"1e309"', '9007199254740993']) {
      const answer = await call('case', 'PATCH', `/cm/cases/${caseId}/edit`, staff, `{"verdict_id":${raw}}`);
      expect(answer.status, `${raw}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.message).toContain('verdict_id');
    }
    expectRefused(
      await call('case', 'PATCH', `/cm/cases/${caseId}/edit`, staff, '{"verdict_id":2147483648}'),
      'verdict_id',
      /must be <= 2147483647/,
    );
    expect((await read()).rows).toEqual(before.rows);
  });

  it('an id list filter with an id above the integer range is a 400 naming the field', async () => {
    expectRefused(
      await call('case', 'GET', '/cm/cases?verdict_id=1,99999999999', staff),
      'verdict_id',
      /ids\) no greater than 2147483647/,
    );
  });
});
