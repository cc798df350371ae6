import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The gateway's shared report answers (gateway/src/cache/report-answers.ts) in front of the real
 * case service, on real Postgres and Redis: people who see the same cases share an answer, others
 * do not, and whoever writes sees their write at once while the others' answer may lag a few seconds.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const TOTALS = '/api/cm/cases/reports/cases-status-totals';
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const RANGE = `date_range=${day(90)}|${day(0)}`;

const get = (username: string, path: string) =>
  callGateway(stack.gatewayUrl, 'acme', 'GET', path, { token: tokens.get(username) });

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const u of ['admin', 'manager', 'agent', 'merchant.user', 'merchant.admin'])
    tokens.set(u, await signInThroughGateway(stack.gatewayUrl, 'acme', u));
});

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('report answers shared by data scope', () => {
  it('provider staff share one answer; a merchant has its own; the query in any order is one answer', async () => {
    const first = await get('agent', `${TOTALS}?${RANGE}&date_reference=post`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const other = await get('manager', `${TOTALS}?date_reference=post&${RANGE}`);
    expect(other.headers.get('x-cache')).toBe('HIT');
    expect(other.json).toEqual(first.json);

    const merchant = await get('merchant.user', `${TOTALS}?${RANGE}&date_reference=post`);
    expect(merchant.headers.get('x-cache')).toBe('MISS');
    expect(merchant.json.total).toBeLessThan(first.json.total as number);
    // The merchant's admin sees the same merchant's cases.
    expect((await get('merchant.admin', `${TOTALS}?${RANGE}&date_reference=post`)).json).toEqual(
      merchant.json,
    );
  });

  it('refusals are not kept, and CSV downloads are not shared', async () => {
    const refused = await get('merchant.user', `${TOTALS}?client_id=999999`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-cache')).toBe('MISS');
    expect((await get('merchant.user', `${TOTALS}?client_id=999999`)).headers.get('x-cache')).toBe('MISS');
    const csv = await get('manager', '/api/cm/cases/reports/mid-health.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('x-cache')).toBeNull();
  });

  it('the writer sees their write at once; the others may see the shared answer until it ends', async () => {
    const before = await get('admin', TOTALS);
    expect((await get('manager', TOTALS)).headers.get('x-cache')).toBe('HIT');
    const open = await get('manager', '/api/cm/cases?intent=case-management&filter_group=new_cases&limit=1');
    const id = (open.json.data as Array<{ id: number }>)[0]!.id;
    const dnr = await callGateway(stack.gatewayUrl, 'acme', 'PATCH', '/api/cm/review', {
      token: tokens.get('manager'),
      body: { cases: [{ id, action_id: 2 }] },
    });
    expect(dnr.status).toBe(200);

    const mine = await get('manager', TOTALS);
    expect(mine.headers.get('x-cache')).toBe('MISS');
    expect(mine.json).not.toEqual(before.json);
    // Their own answer is kept for them while their write's marker lasts.
    expect((await get('manager', TOTALS)).headers.get('x-cache')).toBe('HIT');
    expect((await get('manager', TOTALS)).json).toEqual(mine.json);
    const theirs = await get('agent', TOTALS);
    expect(theirs.headers.get('x-cache')).toBe('HIT');
    expect(theirs.json).toEqual(before.json);

    await callGateway(stack.gatewayUrl, 'acme', 'PATCH', '/api/cm/review', {
      token: tokens.get('manager'),
      body: { cases: [{ id, action_id: 3 }] },
    });
  });
});
