import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';
import { reviewSupport } from './review-support';

let c: CaseApp;
const s = reviewSupport(() => c);
const manager = demoCtx('acme', 'manager');
const agent = demoCtx('acme', 'agent');
const merchantAdmin = demoCtx('acme', 'merchant.admin');
const readonly = demoCtx('acme', 'readonly');
const northbank = demoCtx('northbank', 'manager');

beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

describe('QC review (spec 2 §2.4, §7)', () => {
  it('lists the QC queue (status 3 only, scoped, paged)', async () => {
    const [a1] = await s.cases(1, { merchantA1: true, status: 3 });
    const all = await c.call('GET', '/cm/cases/qc?limit=100&status_id=1', manager);
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    expect(all.body.data.every((r: { status_id: number }) => r.status_id === 3)).toBe(true);
    const mine = await c.call('GET', '/cm/cases/qc?limit=1000', merchantAdmin);
    const a1Id = demoMerchantId(ACME, 'merchantA1');
    expect(mine.body.data.every((r: { merchant_id: number }) => r.merchant_id === a1Id)).toBe(true);
    expect(mine.body.data.map((r: { id: number }) => r.id)).toContain(a1);
    expect((await c.call('GET', '/cm/cases/qc?limit=5000', manager)).status).toBe(400);
  });

  it('hands two reviewers different cases and marks who has which', async () => {
    const first = await c.call('GET', '/cm/cases/qc/next', manager);
    expect(first.status).toBe(200);
    expect(first.body.status_id).toBe(3);
    expect(first.body.mark).toMatchObject({ type: 'qc-review', status: 1, username: 'manager' });
    const second = await c.call('GET', '/cm/cases/qc/next', agent);
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.mark.username).toBe('agent');
    // Asking again gives the reviewer their own open case back.
    expect((await c.call('GET', '/cm/cases/qc/next', manager)).body.id).toBe(first.body.id);
    // The other reviewer cannot act on it or take it.
    const steal = await c.call('PATCH', '/cm/cases/qc', agent, { id: first.body.id, action_id: 1 });
    expect(steal.status).toBe(409);
    expect(steal.body.message).toContain('manager');
    const take = await c.call('PATCH', '/cm/cases/patch', agent, {
      ids: String(first.body.id),
      status: 1,
      type: 'qc-review',
    });
    expect(take.status).toBe(409);
    // By id: the case with its mark.
    const byId = await c.call('GET', `/cm/cases/qc/${first.body.id}`, agent);
    expect(byId.status).toBe(200);
    expect(byId.body.mark.username).toBe('manager');
    // Releasing (2) clears the mark; the history has both rows.
    const rel = await c.call('PATCH', '/cm/cases/patch', agent, {
      ids: String(second.body.id),
      status: 2,
      type: 'qc-review',
    });
    expect(rel.status).toBe(200);
    expect(rel.body.data[0].mark).toBeNull();
    expect(await s.mark(second.body.id)).toBeUndefined();
    const h = (await s.history(second.body.id)).map((r) => r.action);
    expect(h.slice(-2)).toEqual(['Opened (qc-review)', 'Released (qc-review)']);
    await c.call('PATCH', '/cm/cases/patch', manager, {
      ids: String(first.body.id),
      status: 2,
      type: 'qc-review',
    });
  });

  it('approves: the case goes to transport, with its history row and the spec message', async () => {
    const [id] = await s.cases(1, { status: 3 });
    const open = await c.call('PATCH', '/cm/cases/patch', manager, {
      ids: String(id),
      status: 1,
      type: 'qc-review',
    });
    expect(open.status).toBe(200);
    expect(open.body.data[0].mark).toMatchObject({ username: 'manager', type: 'qc-review' });
    const r = await c.call('PATCH', '/cm/cases/qc', manager, { id, action_id: 1 });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(`Case ${id} was successfully approved. Loading next...`);
    expect(r.body.data[0]).toMatchObject({ id, status_id: 8 });
    expect((await s.history(id!)).at(-1)).toMatchObject({
      action: 'QC approved: representment sent to transport',
      username: 'manager',
    });
    expect(await s.mark(id!)).toBeUndefined();
    // Not in the queue any more.
    expect((await c.call('GET', `/cm/cases/qc/${id}`, manager)).status).toBe(404);
    const again = await c.call('PATCH', '/cm/cases/qc', manager, { id, action_id: 1 });
    expect(again.status).toBe(409);
  });

  it('moves a QC case to Do Not Represent (a loss) through its own call, releasing the mark', async () => {
    const [id] = await s.cases(1, { status: 3 });
    const opened = await c.call('PATCH', '/cm/cases/patch', agent, {
      ids: String(id),
      status: 1,
      type: 'qc-review',
    });
    expect(opened.status).toBe(200);
    const r = await c.call('PATCH', '/cm/cases/qc/dnr', agent, { id });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(`Case ${id} was successfully moved to Do Not Represent. Loading next...`);
    expect(r.body.data[0]).toMatchObject({ status_id: 4, verdict: 'Loss' });
    expect(await s.row(id!)).toMatchObject({ status_id: 4, verdict_id: 5 });
    expect(await s.mark(id!)).toBeUndefined();
    expect((await s.history(id!)).at(-1)).toMatchObject({
      action: 'QC: moved to Do Not Represent (marked a loss)',
      username: 'agent',
    });
    // Once out of the queue it cannot be moved again.
    expect((await c.call('PATCH', '/cm/cases/qc/dnr', agent, { id })).status).toBe(409);
  });

  it('refuses Do Not Represent on the approve call, for read-only users, out of scope and on bad input', async () => {
    const [id] = await s.cases(1, { merchantA1: true, status: 3 });
    const before = await s.row(id!);
    const viaApprove = await c.call('PATCH', '/cm/cases/qc', manager, { id, action_id: 2 });
    expect(viaApprove.status).toBe(400);
    expect(viaApprove.body.message).toBe('action_id: Do Not Represent goes through PATCH /cm/cases/qc/dnr.');
    expect((await c.call('PATCH', '/cm/cases/qc/dnr', readonly, { id })).status).toBe(403);
    expect((await c.call('PATCH', '/cm/cases/qc/dnr', northbank, { id })).status).toBe(404);
    const other = await s.otherMerchantCase(3);
    expect((await c.call('PATCH', '/cm/cases/qc/dnr', merchantAdmin, { id: other })).status).toBe(404);
    const bad = await c.call('PATCH', '/cm/cases/qc/dnr', manager, { id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('id');
    expect((await c.call('PATCH', '/cm/cases/qc/dnr', manager, { id, action_id: 2 })).status).toBe(400);
    // Opened by another reviewer: 409 and nothing changes.
    await c.call('PATCH', '/cm/cases/patch', agent, { ids: String(id), status: 1, type: 'qc-review' });
    const taken = await c.call('PATCH', '/cm/cases/qc/dnr', manager, { id });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('agent');
    expect(await s.row(id!)).toEqual(before);
    expect((await s.row(other)).status_id).toBe(3);
  });

  it('refuses read-only callers and writes nothing; they may still look', async () => {
    const [id] = await s.cases(1, { merchantA1: true, status: 3 });
    const before = await s.row(id!);
    const h = (await s.history(id!)).length;
    expect((await c.call('PATCH', '/cm/cases/qc', readonly, { id, action_id: 1 })).status).toBe(403);
    const mark = await c.call('PATCH', '/cm/cases/patch', readonly, {
      ids: String(id),
      status: 1,
      type: 'qc-review',
    });
    expect(mark.status).toBe(403);
    const next = await c.call('GET', '/cm/cases/qc/next', readonly);
    expect(next.status).toBe(200);
    expect(next.body.mark?.username ?? null).not.toBe('readonly');
    expect(await s.row(id!)).toEqual(before);
    expect((await s.history(id!)).length).toBe(h);
  });

  it('answers 404 out of scope and 400 naming the parameter', async () => {
    const other = await s.otherMerchantCase(3);
    expect((await c.call('GET', `/cm/cases/qc/${other}`, merchantAdmin)).status).toBe(404);
    expect((await c.call('PATCH', '/cm/cases/qc', merchantAdmin, { id: other, action_id: 1 })).status).toBe(
      404,
    );
    expect((await c.call('GET', `/cm/cases/qc/${other}`, northbank)).status).toBe(404);
    expect((await c.call('PATCH', '/cm/cases/qc', northbank, { id: other, action_id: 1 })).status).toBe(404);
    expect((await s.row(other)).status_id).toBe(3);

    const badAction = await c.call('PATCH', '/cm/cases/qc', manager, { id: other, action_id: 9 });
    expect(badAction.status).toBe(400);
    expect(badAction.body.message).toContain('action_id');
    const badId = await c.call('PATCH', '/cm/cases/qc', manager, { id: 'x', action_id: 1 });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toContain('id');
    expect((await c.call('GET', '/cm/cases/qc/abc', manager)).status).toBe(400);
    const badIds = await c.call('PATCH', '/cm/cases/patch', manager, {
      ids: '1;2',
      status: 1,
      type: 'qc-review',
    });
    expect(badIds.status).toBe(400);
    expect(badIds.body.message).toContain('ids');
    const badStatus = await c.call('PATCH', '/cm/cases/patch', manager, {
      ids: String(other),
      status: 16,
      type: 'qc-review',
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.message).toContain('status');
    // A bulk mark with one unknown case marks none of them.
    const [a, b] = await s.cases(2, { status: 3 });
    const bulk = await c.call('PATCH', '/cm/cases/patch', manager, {
      ids: `${a},${b},${other + 10_000_000}`,
      status: 1,
      type: 'qc-review',
    });
    expect(bulk.status).toBe(400);
    expect(bulk.body.message).toContain('ids');
    expect(await s.mark(a!)).toBeUndefined();
    expect(await s.mark(b!)).toBeUndefined();
  });

  it('upload marks use 16 and release with 1 (spec 2 §4)', async () => {
    const [id] = await s.cases(1);
    const m = await c.call('POST', '/cm/cases/patch', manager, {
      ids: String(id),
      status: 16,
      type: 'upload',
    });
    expect(m.status).toBe(200);
    expect(await s.mark(id!)).toMatchObject({ type: 'upload', status: 16 });
    const r = await c.call('PUT', '/cm/cases/patch', manager, { ids: String(id), status: 1, type: 'upload' });
    expect(r.status).toBe(200);
    expect(await s.mark(id!)).toBeUndefined();
  });

  it("says 'No more cases for QC Review.' when the queue is empty", async () => {
    // Merchant A1's queue, emptied: the merchant admin has no case left.
    await c.t.db.query(`update cases.cases set status_id = 8 where merchant_id = $1 and status_id = 3`, [
      demoMerchantId(ACME, 'merchantA1'),
    ]);
    const r = await c.call('GET', '/cm/cases/qc/next', merchantAdmin);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('No more cases for QC Review.');
  });
});
