import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEW_MESSAGES, SAVED_VIEWS_MAX, type SavedView } from '@portal/contracts';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { buildUserApp, demoId, userHeaders } from './support';

/**
 * Saved views (issue 21) against real Postgres: own and shared views, the
 * tenant and merchant boundaries, owner-only changes, validation without 5xx.
 * acme's manager and agent share the provider's root merchant; merchant.admin
 * and merchant.user share 'Blue Sky Outfitters'.
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

type Extra = Parameters<typeof userHeaders>[3];
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who: [tenant: string, username: string, extra?: Extra],
  payload?: unknown,
) =>
  app.inject({
    method,
    url,
    headers: userHeaders(t, who[0], who[1], who[2]),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const create = (who: [string, string, Extra?], body: Record<string, unknown>) =>
  call('POST', '/users/saved-views', who, {
    list: 'cases',
    path: '/chargebacks',
    query: 'search=1',
    ...body,
  });
const list = async (who: [string, string], kind = 'cases') => {
  const r = await call('GET', `/users/saved-views?list=${kind}`, who);
  expect(r.statusCode).toBe(200);
  return (r.json() as { data: SavedView[] }).data;
};
const names = (views: SavedView[]) => views.map((v) => v.name);

const manager: [string, string] = ['acme', 'manager'];
const agent: [string, string] = ['acme', 'agent'];
const merchantAdmin: [string, string] = ['acme', 'merchant.admin'];
const northbankManager: [string, string] = ['northbank', 'manager'];

describe('saved views', () => {
  it('saves a view (name trimmed, leading ? dropped) and answers it to its owner', async () => {
    const r = await create(manager, {
      name: '  New Visa cases  ',
      query: '?tab=new_cases&sort_by=date_post',
    });
    expect(r.statusCode).toBe(201);
    const view = r.json() as SavedView;
    expect(view).toMatchObject({
      list: 'cases',
      path: '/chargebacks',
      name: 'New Visa cases',
      query: 'tab=new_cases&sort_by=date_post',
      shared: false,
      is_owner: true,
      owner: { id: demoId('acme', 'manager') },
    });
    expect(view.owner.name).not.toBe('');
    expect(Number.isNaN(Date.parse(view.created_at))).toBe(false);
    expect(names(await list(manager))).toContain('New Visa cases');
    // Another list kind is another menu.
    expect(names(await list(manager, 'alerts'))).not.toContain('New Visa cases');
  });

  it('keeps private views private and shows shared ones to the same merchant only', async () => {
    await create(manager, { name: 'Private one' });
    const shared = (await create(manager, { name: 'Team view', shared: true })).json() as SavedView;
    const seenByAgent = await list(agent);
    expect(names(seenByAgent)).toContain('Team view');
    expect(names(seenByAgent)).not.toContain('Private one');
    const asAgent = seenByAgent.find((v) => v.id === shared.id)!;
    expect(asAgent.is_owner).toBe(false);
    expect(asAgent.owner.id).toBe(demoId('acme', 'manager'));
    // Another merchant of the same tenant, and the same username in another tenant, see nothing of it.
    expect(names(await list(merchantAdmin))).not.toContain('Team view');
    expect(names(await list(northbankManager))).not.toContain('Team view');
  });

  it('lets only the owner rename, unshare or delete a view', async () => {
    const view = (await create(manager, { name: 'Owner only', shared: true })).json() as SavedView;
    const url = `/users/saved-views/${view.id}`;
    for (const who of [agent, merchantAdmin, northbankManager]) {
      expect((await call('PATCH', url, who, { name: 'Taken over' })).statusCode).toBe(404);
      expect((await call('DELETE', url, who)).statusCode).toBe(404);
    }
    expect(names(await list(agent))).toContain('Owner only');

    const renamed = await call('PATCH', url, manager, { name: 'Owner only (renamed)', shared: false });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Owner only (renamed)', shared: false });
    expect(names(await list(agent))).not.toContain('Owner only (renamed)');

    expect((await call('DELETE', url, manager)).statusCode).toBe(204);
    expect((await call('DELETE', url, manager)).statusCode).toBe(404);
    expect(names(await list(manager))).not.toContain('Owner only (renamed)');
  });

  it('refuses a duplicate name of the same user and list with 409, other users and lists may reuse it', async () => {
    expect((await create(merchantAdmin, { name: 'Due soon' })).statusCode).toBe(201);
    const dup = await create(merchantAdmin, { name: ' due SOON ' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(SAVED_VIEW_MESSAGES.nameTaken);
    expect(
      (await create(merchantAdmin, { name: 'Due soon', list: 'alerts', path: '/alerts' })).statusCode,
    ).toBe(201);
    expect((await create(['acme', 'merchant.user'], { name: 'Due soon' })).statusCode).toBe(201);
    // Renaming onto an existing name is the same conflict.
    const other = (await create(merchantAdmin, { name: 'Other' })).json() as SavedView;
    const clash = await call('PATCH', `/users/saved-views/${other.id}`, merchantAdmin, { name: 'due soon' });
    expect(clash.statusCode).toBe(409);
  });

  it(`caps the views of one user and list at ${SAVED_VIEWS_MAX}`, async () => {
    const who: [string, string] = ['northbank', 'agent'];
    const results = await Promise.all(
      Array.from({ length: SAVED_VIEWS_MAX + 3 }, (_, i) => create(who, { name: `View ${i}` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(SAVED_VIEWS_MAX);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => r.statusCode)).toEqual([409, 409, 409]);
    expect(refused[0]!.json().message).toBe(SAVED_VIEW_MESSAGES.tooMany);
    expect(await list(who)).toHaveLength(SAVED_VIEWS_MAX);
  });

  it('lets read-only users keep views, but nobody writes views while acting as another user', async () => {
    expect((await create(['acme', 'readonly', { read_only: true }], { name: 'Mine' })).statusCode).toBe(201);
    const admin = demoId('acme', 'admin');
    const impersonated: [string, string, Extra] = ['acme', 'merchant.user', { actor_id: admin }];
    const r = await create(impersonated, { name: 'Planted' });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe(SAVED_VIEW_MESSAGES.impersonating);
    expect(names(await list(['acme', 'merchant.user']))).not.toContain('Planted');
    // Looking is fine.
    expect((await call('GET', '/users/saved-views?list=cases', impersonated)).statusCode).toBe(200);
  });

  it('answers bad input with 400 and never 5xx', async () => {
    const bad: Record<string, unknown>[] = [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(81) },
      { name: 'bad\u0000name' },
      { name: 'tab\tname' },
      { name: 'ok', query: 'a'.repeat(2001) },
      { name: 'ok', query: 'a=\u0000' },
      { name: 'ok', list: 'users' },
      { name: 'ok', path: '/../etc' },
      { name: 'ok', path: 'chargebacks' },
      { name: 'ok', shared: 'yes' },
      { name: 'ok', extra: 1 },
    ];
    for (const body of bad) {
      const r = await create(manager, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().message).toBeTruthy();
    }
    for (const url of [
      '/users/saved-views',
      '/users/saved-views?list=nope',
      '/users/saved-views?list=cases%00',
    ]) {
      expect((await call('GET', url, manager)).statusCode, url).toBe(400);
    }
    for (const id of ['99999999999999999999', '0', '-1', 'abc', '1%00', '2147483648']) {
      const patch = await call('PATCH', `/users/saved-views/${id}`, manager, { name: 'x' });
      expect(patch.statusCode, id).toBe(400);
      expect((await call('DELETE', `/users/saved-views/${id}`, manager)).statusCode, id).toBe(400);
    }
    // A well-formed id nobody has is a 404; an empty change is a 400.
    expect((await call('PATCH', '/users/saved-views/2147483647', manager, { name: 'x' })).statusCode).toBe(
      404,
    );
    const own = (await create(manager, { name: 'Empty change' })).json() as SavedView;
    expect((await call('PATCH', `/users/saved-views/${own.id}`, manager, {})).statusCode).toBe(400);
    expect((await call('PATCH', `/users/saved-views/${own.id}`, manager, { name: ' ' })).statusCode).toBe(
      400,
    );
  });
});
