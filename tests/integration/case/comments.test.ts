import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
const manager = demoCtx('acme', 'manager');
const merchantAdmin = demoCtx('acme', 'merchant.admin');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

/** A case of merchant A1's subtree (or outside it), never the same twice. */
const used = new Set<number>();
async function pickCase(inA1: boolean): Promise<number> {
  const { rows } = await c.t.db.query<{ id: number }>(
    `with recursive t(id) as (
       select id from cases.merchants where tenant_id = 'acme' and id = $1
       union all select m.id from cases.merchants m join t on m.parent_id = t.id where m.tenant_id = 'acme')
     select id from cases.cases where tenant_id = 'acme' and (merchant_id in (select id from t)) = $2
       and not (id = any($3::bigint[])) order by id limit 1`,
    [demoMerchantId(ACME, 'merchantA1'), inA1, [...used]],
  );
  const id = Number(rows[0]!.id);
  used.add(id);
  return id;
}
const stored = async (id: number) =>
  (
    await c.t.db.query<{ text: string; username: string }>(
      `select text, username from cases.case_comments where case_id = $1 order by id`,
      [id],
    )
  ).rows;
const history = async (id: number) =>
  (
    await c.t.db.query<{ action: string; username: string }>(
      `select action, username from cases.case_history where case_id = $1 order by id`,
      [id],
    )
  ).rows;
const caseRow = async (id: number) =>
  (await c.t.db.query<Record<string, unknown>>(`select * from cases.cases where id = $1`, [id])).rows[0]!;

describe('case comments', () => {
  it('adds and lists comments, newest first; the case row and the history show them', async () => {
    const id = await pickCase(true);
    const first = await c.call('POST', `/cm/cases/${id}/comments`, merchantAdmin, {
      comment: 'Called the issuer.',
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('The comment was successfully added.');
    expect(first.body.comment).toMatchObject({
      case_id: id,
      user: 'merchant.admin',
      text: 'Called the issuer.',
    });
    expect(first.body.data[0]).toMatchObject({ id, comments: 'Called the issuer.' });
    const second = await c.call('POST', `/cm/cases/${id}/comments`, manager, {
      comment: '  Sent the receipt.  ',
    });
    expect(second.body.comment.text).toBe('Sent the receipt.');

    const list = await c.call('GET', `/cm/cases/${id}/comments`, merchantAdmin);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ total: 2, start: 0, limit: 20 });
    expect(list.body.data.map((x: { text: string }) => x.text)).toEqual([
      'Sent the receipt.',
      'Called the issuer.',
    ]);
    expect(list.body.data[0]).toMatchObject({ user: 'manager', created_at: expect.stringMatching(/Z$/) });
    const paged = await c.call('GET', `/cm/cases/${id}/comments?start=1&limit=1`, merchantAdmin);
    expect(paged.body.data.map((x: { text: string }) => x.text)).toEqual(['Called the issuer.']);

    // The lists' `comments` field is the newest comment.
    const detail = await c.call('GET', `/cm/cases/${id}`, merchantAdmin);
    expect(detail.body.comments).toBe('Sent the receipt.');
    const listed = await c.call('GET', `/cm/cases?search=${id}&limit=5`, manager);
    expect(listed.body.data.find((r: { id: number }) => r.id === id)?.comments).toBe('Sent the receipt.');

    // History rows, through the history call the grid reads.
    expect((await history(id)).slice(-2)).toEqual([
      { action: 'Comment added: Called the issuer.', username: 'merchant.admin' },
      { action: 'Comment added: Sent the receipt.', username: 'manager' },
    ]);
    const h = await c.call('GET', `/cm/cases/${id}/history?limit=1`, manager);
    expect(h.body.data[0]).toMatchObject({ user: 'manager', action: 'Comment added: Sent the receipt.' });
  });

  it('cuts a long comment in the history, not in the comment', async () => {
    const id = await pickCase(true);
    const long = 'x'.repeat(2000);
    const r = await c.call('POST', `/cm/cases/${id}/comments`, manager, { comment: long });
    expect(r.status).toBe(200);
    expect((await stored(id)).at(-1)!.text).toBe(long);
    expect((await history(id)).at(-1)!.action).toBe(`Comment added: ${'x'.repeat(200)}...`);
  });

  it("answers 404 for another merchant's case and another tenant's, writing nothing", async () => {
    const other = await pickCase(false);
    const before = await caseRow(other);
    const add = await c.call('POST', `/cm/cases/${other}/comments`, merchantAdmin, { comment: 'not mine' });
    expect(add.status).toBe(404);
    expect((await c.call('GET', `/cm/cases/${other}/comments`, merchantAdmin)).status).toBe(404);
    const northbank = demoCtx('northbank', 'manager');
    expect((await c.call('POST', `/cm/cases/${other}/comments`, northbank, { comment: 'x' })).status).toBe(
      404,
    );
    expect((await c.call('GET', `/cm/cases/${other}/comments`, northbank)).status).toBe(404);
    expect((await c.call('GET', `/cm/cases/999999999/comments`, manager)).status).toBe(404);
    expect(await stored(other)).toEqual([]);
    expect(await caseRow(other)).toEqual(before);
  });

  it('refuses a read-only user with 403; reading stays allowed', async () => {
    const id = await pickCase(true);
    const ro = demoCtx('acme', 'readonly');
    const r = await c.call('POST', `/cm/cases/${id}/comments`, ro, { comment: 'x' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Read-only users cannot change cases.');
    expect((await c.call('GET', `/cm/cases/${id}/comments`, ro)).status).toBe(200);
    expect(await stored(id)).toEqual([]);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const id = await pickCase(true);
    const before = await caseRow(id);
    const historyBefore = await history(id);
    const bad: unknown[] = [
      {},
      { comment: '' },
      { comment: '   ' },
      { comment: 'x'.repeat(2001) },
      { comment: 'a\u0000b' },
      { comment: null },
      { comment: 'ok', extra: 1 },
    ];
    for (const body of bad) {
      const r = await c.call('POST', `/cm/cases/${id}/comments`, manager, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await c.call('POST', `/cm/cases/0/comments`, manager, { comment: 'x' })).status).toBe(400);
    expect((await c.call('GET', `/cm/cases/${id}/comments?limit=1000`, manager)).status).toBe(400);
    expect(await stored(id)).toEqual([]);
    expect(await history(id)).toEqual(historyBefore);
    expect(await caseRow(id)).toEqual(before);
  });
});
