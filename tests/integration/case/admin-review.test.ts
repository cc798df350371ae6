import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoUserId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';
import { reviewSupport } from './review-support';

let c: CaseApp;
const s = reviewSupport(() => c);
const manager = demoCtx('acme', 'manager');
const merchantAdmin = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
const northbank = demoCtx('northbank', 'manager');
const agentId = demoUserId(
  ACME,
  DEMO_USERS.find((u) => u.username === 'agent')!,
);

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const reviews = async (id: number) =>
  (
    await c.t.db.query<{ action_id: number; note: string | null; username: string }>(
      `select action_id, note, username from cases.case_reviews where case_id = $1 order by id`,
      [id],
    )
  ).rows;

describe('admin review (spec 2 §2.5, §7)', () => {
  it('lists the open cases by default, scoped; actions list', async () => {
    const r = await c.call('GET', '/cm/review?limit=50', manager);
    expect(r.status).toBe(200);
    expect(r.body.data.every((x: { status_group_id: number }) => [1, 2].includes(x.status_group_id))).toBe(
      true,
    );
    expect(r.body.pagination.total).toBeGreaterThan(0);
    const dnr = await c.call('GET', '/cm/review?filter_group=dnr&limit=5', manager);
    expect(dnr.body.data.every((x: { status_id: number }) => x.status_id === 4)).toBe(true);
    const mine = await c.call('GET', '/cm/review?limit=1000', merchantAdmin);
    expect(mine.status).toBe(200);
    expect(mine.body.pagination.total).toBeLessThan(r.body.pagination.total);
    const actions = await c.call('GET', '/cm/review/actions', manager);
    expect(actions.body.data.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
  });

  it('applies an action by id with a note: review row, history row, spec message', async () => {
    const [id] = await s.cases(1);
    const r = await c.call('PATCH', '/cm/review', manager, {
      cases: [{ id, action_id: 1, note: 'Evidence looks complete' }],
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('The selected row(s) has been reviewed.');
    expect(await reviews(id!)).toEqual([
      { action_id: 1, note: 'Evidence looks complete', username: 'manager' },
    ]);
    expect((await s.history(id!)).at(-1)!.action).toBe(
      'Review: Mark Reviewed (note: Evidence looks complete)',
    );
    const detail = await c.call('GET', `/cm/review/${id}`, manager);
    expect(detail.status).toBe(200);
    expect(detail.body.reviews[0]).toMatchObject({
      action: 'Mark Reviewed',
      note: 'Evidence looks complete',
    });
  });

  it('moves to Do Not Represent and reverts by action id, in bulk without a note', async () => {
    const ids = await s.cases(2);
    const dnr = await c.call('PATCH', '/cm/review', manager, {
      cases: ids.map((id) => ({ id, action_id: 2 })),
    });
    expect(dnr.status).toBe(200);
    expect(dnr.body.data.map((x: { status_id: number }) => x.status_id)).toEqual([4, 4]);
    const back = await c.call('PATCH', '/cm/review', manager, {
      cases: ids.map((id) => ({ id, action_id: 3 })),
    });
    expect(back.status).toBe(200);
    expect(back.body.data.map((x: { status_id: number }) => x.status_id)).toEqual([1, 1]);
    expect((await reviews(ids[0]!)).map((x) => x.note)).toEqual([null, null]);
  });

  it('assigns and unassigns (its own call)', async () => {
    const [id] = await s.cases(1);
    const a = await c.call('PATCH', '/cm/review', manager, { cases: [{ id, assign_id: agentId }] });
    expect(a.status).toBe(200);
    expect(a.body.message).toBe('The case was successfully assigned!');
    expect(a.body.data[0].assigned_user.username).toBe('agent');
    const u = await c.call('PATCH', '/cm/review', manager, { cases: [{ id, assign_id: null }] });
    expect(u.body.message).toBe('The case was successfully unassigned!');
    expect(u.body.data[0].assigned_user).toBeNull();
    expect((await s.history(id!)).slice(-2).map((h) => h.action)).toEqual([
      expect.stringContaining('Review: Assigned to'),
      'Review: Unassigned',
    ]);
  });

  it('refuses read-only callers', async () => {
    const [id] = await s.cases(1, { merchantA1: true });
    const r = await c.call('PATCH', '/cm/review', readonly, { cases: [{ id, action_id: 1 }] });
    expect(r.status).toBe(403);
    expect(await reviews(id!)).toEqual([]);
  });

  it('answers 404 out of scope, 400 naming the parameter, and writes nothing half', async () => {
    const other = await s.otherMerchantCase();
    expect(
      (await c.call('PATCH', '/cm/review', merchantAdmin, { cases: [{ id: other, action_id: 1 }] })).status,
    ).toBe(404);
    expect((await c.call('GET', `/cm/review/${other}`, merchantAdmin)).status).toBe(404);
    expect(
      (await c.call('PATCH', '/cm/review', northbank, { cases: [{ id: other, action_id: 1 }] })).status,
    ).toBe(404);

    const unknown = await c.call('PATCH', '/cm/review', manager, { cases: [{ id: other, action_id: 7 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('cases[0].action_id');
    const mixed = await c.call('PATCH', '/cm/review', manager, {
      cases: [{ id: other, action_id: 1, assign_id: agentId }],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toContain('cases');
    const noteOnAssign = await c.call('PATCH', '/cm/review', manager, {
      cases: [{ id: other, assign_id: agentId, note: 'x' }],
    });
    expect(noteOnAssign.status).toBe(400);
    expect(noteOnAssign.body.message).toContain('note');
    const badAssignee = await c.call('PATCH', '/cm/review', manager, {
      cases: [{ id: other, assign_id: 1 }],
    });
    expect(badAssignee.status).toBe(400);
    expect(badAssignee.body.message).toContain('assign_id');
    expect((await c.call('PATCH', '/cm/review', manager, { cases: [] })).status).toBe(400);

    // The second case cannot go to DNR (it is completed): neither case changes, no review rows.
    const [open] = await s.cases(1);
    const [done] = await s.cases(1, { where: 'status_id = 10' });
    const before = [await s.row(open!), await s.row(done!)];
    const r = await c.call('PATCH', '/cm/review', manager, {
      cases: [
        { id: open, action_id: 2, note: 'n' },
        { id: done, action_id: 2 },
      ],
    });
    expect(r.status).toBe(409);
    expect([await s.row(open!), await s.row(done!)]).toEqual(before);
    expect(await reviews(open!)).toEqual([]);
  });
});
