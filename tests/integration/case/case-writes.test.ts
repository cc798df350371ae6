import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoMerchantId, demoUserId } from '@portal/contracts';
import { ACME, demoCtx, startCaseApp, type CaseApp } from './case-app';

let c: CaseApp;
const manager = demoCtx('acme', 'manager');
const agentId = demoUserId(
  ACME,
  DEMO_USERS.find((u) => u.username === 'agent')!,
);
const adminId = demoUserId(
  ACME,
  DEMO_USERS.find((u) => u.username === 'admin')!,
);
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

/** Distinct cases for each test (New, unflagged, unassigned by default), never the same twice; merchant A1's when asked. */
const used = new Set<number>();
const NEW_FREE = 'status_id = 1 and not is_flagged and assigned_user_id is null';
async function freshCases(n: number, where = NEW_FREE, merchantA1 = false): Promise<number[]> {
  const { rows } = await c.t.db.query<{ id: number }>(
    `select id from cases.cases where tenant_id = 'acme' and (merchant_id = $1 or not $4) and ${where} and not (id = any($2::bigint[]))
     order by id limit $3`,
    [demoMerchantId(ACME, 'merchantA1'), [...used], n, merchantA1],
  );
  const ids = rows.map((r) => Number(r.id));
  ids.forEach((id) => used.add(id));
  if (ids.length < n) throw new Error('not enough sample cases');
  return ids;
}
const history = async (id: number) =>
  (
    await c.t.db.query<{ action: string; username: string; user_id: number; actor_id: number }>(
      `select action, username, user_id, actor_id from cases.case_history where case_id = $1 order by id`,
      [id],
    )
  ).rows;
const caseRow = async (id: number) =>
  (await c.t.db.query<Record<string, unknown>>(`select * from cases.cases where id = $1`, [id])).rows[0]!;

describe('case writes', () => {
  it('edits the verdict only, with a history row naming the actor', async () => {
    const [id] = await freshCases(1);
    const r = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, { verdict_id: 4 });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Chargeback(s) successfully updated.');
    expect(r.body.data[0]).toMatchObject({ id, verdict_id: 4, verdict: 'Win' });
    const h = await history(id!);
    expect(h.at(-1)).toMatchObject({ action: expect.stringContaining('-> Win'), username: 'manager' });
  });

  it('validates the full edit and writes nothing on error', async () => {
    const [id] = await freshCases(1, 'status_id = 1 and processor_invoice_id is not null and not is_flagged');
    const before = await caseRow(id!);
    const missingInvoice = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, {
      verdict_id: 3,
      case_amt: 10,
      reason_code_id: 104,
      currency_id: 1,
    });
    expect(missingInvoice.status).toBe(400);
    expect(missingInvoice.body.message).toContain('processor_invoice_id');
    const missingRc = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, {
      verdict_id: 3,
      case_amt: 10,
      processor_invoice_id: 'INV-1',
    });
    expect(missingRc.status).toBe(400);
    expect(missingRc.body.message).toContain('reason_code_id');
    const unknownVerdict = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, { verdict_id: 99 });
    expect(unknownVerdict.status).toBe(400);
    expect(unknownVerdict.body.message).toContain('verdict_id');
    const zero = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, { verdict_id: 0 });
    expect(zero.status).toBe(400);
    expect(await caseRow(id!)).toEqual(before);
    const wrongCard = before.card_type_id === 1 ? 201 : 104;
    const badRc = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, {
      verdict_id: 3,
      case_amt: 10,
      processor_invoice_id: 'INV-1',
      reason_code_id: wrongCard,
      currency_id: 2,
    });
    expect(badRc.status).toBe(400);
    expect(badRc.body.message).toContain('reason_code_id');
    const rc = (
      await c.t.db.query<{ id: number; is_fraud: boolean }>(
        `select id, is_fraud from cases.reason_codes where card_type_id = $1 order by id desc limit 1`,
        [before.card_type_id],
      )
    ).rows[0]!;
    const ok = await c.call('PATCH', `/cm/cases/${id}/edit`, manager, {
      verdict_id: 3,
      case_amt: 12.5,
      processor_invoice_id: 'INV-9',
      reason_code_id: rc.id,
      currency_id: 2,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0]).toMatchObject({
      dispute_amt: 12.5,
      processor_invoice_id: 'INV-9',
      reason_code_id: rc.id,
      dispute_currency: 'EUR',
      is_fraud: rc.is_fraud,
    });
  });

  it('bulk-edits verdicts all or nothing', async () => {
    const ids = await freshCases(3);
    const bad = await c.call('PUT', '/cm/cases/edit', manager, {
      cases: [
        { id: ids[0], verdict_id: 4 },
        { id: 42, verdict_id: 4 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('cases');
    expect((await caseRow(ids[0]!)).verdict_id).not.toBe(4);
    const ok = await c.call('PUT', '/cm/cases/edit', manager, {
      cases: ids.map((id) => ({ id, verdict_id: 5 })),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((r: { verdict: string }) => r.verdict)).toEqual(['Loss', 'Loss', 'Loss']);
    for (const id of ids) expect((await history(id)).length).toBeGreaterThan(0);
  });

  it('a bulk verdict waiting on a case another writer is moving finds it (not an unknown id)', async () => {
    const [id] = await freshCases(1);
    let moved!: () => void;
    let release!: () => void;
    const movedNow = new Promise<void>((r) => (moved = r));
    const held = new Promise<void>((r) => (release = r));
    // Another writer changes the case's status and holds its lock a moment.
    const other = c.t.db.transaction(async (tx) => {
      await tx.query(`update cases.cases set status_id = 2, status_group_id = 2 where id = $1`, [id]);
      moved();
      await held;
    });
    await movedNow;
    const edit = c.call('PUT', '/cm/cases/edit', manager, { cases: [{ id, verdict_id: 5 }] });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await other;
    const answer = await edit;
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.body.data[0]).toMatchObject({ id, verdict: 'Loss', status_id: 2 });
  });

  it('moves a case to DNR (status 4, a loss) and reverts it (status 1)', async () => {
    const [id] = await freshCases(1);
    const dnr = await c.call('PATCH', `/cm/cases/${id}`, manager, { status_id: 4 });
    expect(dnr.status).toBe(200);
    expect(dnr.body.data[0]).toMatchObject({
      status_id: 4,
      status_group_id: 5,
      verdict: 'Loss',
      properties: { is_revert_dnr_enabled: true, is_dnr_enabled: false },
    });
    const again = await c.call('PATCH', `/cm/cases/${id}`, manager, { status_id: 4 });
    expect(again.status).toBe(409);
    const revert = await c.call('PATCH', `/cm/cases/${id}`, manager, { status_id: 1 });
    expect(revert.body.data[0]).toMatchObject({
      status_id: 1,
      status_group_id: 1,
      verdict: 'Verdict Pending',
      date_completed: null,
    });
    expect((await history(id!)).map((h) => h.action).slice(-2)).toEqual([
      'Moved to Do Not Represent (marked a loss)',
      'Reverted Do Not Represent',
    ]);
    const counts = await c.t.db.query<{ a: number; b: number }>(
      `select (select count(*) from cases.cases where tenant_id = 'acme' and status_id = 4)::int as a,
              (select sum(n) from cases.case_counts where tenant_id = 'acme' and status_id = 4)::int as b`,
    );
    expect(counts.rows[0]!.a).toBe(counts.rows[0]!.b);
  });

  it('keeps case_counts exact, and writes them only when a counted column changes', async () => {
    const [id] = await freshCases(1);
    // The row versions (xmin) of the counts of the case's MID: an update that writes a count changes them.
    const versions = async () =>
      (
        await c.t.db.query<{ v: string }>(
          `select string_agg(k.xmin::text || ':' || k.n, ',' order by k.status_id, k.cycle_id, k.is_fraud) as v
             from cases.case_counts k join cases.cases x on x.id = $1
            where (k.tenant_id, k.merchant_id, k.mid_id) = (x.tenant_id, x.merchant_id, x.mid_id)`,
          [id],
        )
      ).rows[0]!.v;
    const before = await versions();
    const assign = await c.call('PATCH', `/cm/cases/${id}`, manager, { user_id: agentId });
    expect(assign.status).toBe(200);
    expect(await versions()).toBe(before);
    const dnr = await c.call('PATCH', `/cm/cases/${id}`, manager, { status_id: 4 });
    expect(dnr.status).toBe(200);
    expect(await versions()).not.toBe(before);
    // A bulk change across many counts (one statement), there and back.
    const flip = `update cases.cases set is_fraud = not is_fraud where id in
      (select id from cases.cases where tenant_id = 'acme' order by id limit 400)`;
    const mismatches = () =>
      c.t.db.query(
        `select coalesce(a.merchant_id, b.merchant_id) as merchant_id from
           (select merchant_id, mid_id, status_id, cycle_id, is_fraud, count(*) as n from cases.cases
             where tenant_id = 'acme' group by 1, 2, 3, 4, 5) a
           full join (select * from cases.case_counts where tenant_id = 'acme' and n <> 0) b
             using (merchant_id, mid_id, status_id, cycle_id, is_fraud)
          where a.n is distinct from b.n`,
      );
    await c.t.db.query(flip);
    expect((await mismatches()).rows).toEqual([]);
    await c.t.db.query(flip);
    expect((await mismatches()).rows).toEqual([]);
  });

  it('bulk DNR only for cases sharing one type, nothing half-written', async () => {
    const [a] = await freshCases(1);
    const [b] = await freshCases(1, 'status_id = 5');
    const mixed = await c.call('PUT', '/cm/cases', manager, {
      cases: [
        { id: a, status_id: 4 },
        { id: b, status_id: 4 },
      ],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toBe('You can only operate on cases that share a single type.');
    expect((await caseRow(a!)).status_id).toBe(1);
    const ids = await freshCases(2);
    const ok = await c.call('PUT', '/cm/cases/', manager, { cases: ids.map((id) => ({ id, status_id: 4 })) });
    expect(ok.status).toBe(200);
    const revert = await c.call('PUT', '/cm/cases', manager, {
      cases: ids.map((id) => ({ id, status_id: 1 })),
    });
    expect(revert.body.data.map((r: { status_id: number }) => r.status_id)).toEqual([1, 1]);
  });

  it('patches statuses in bulk (representment statuses)', async () => {
    const ids = await freshCases(2);
    const r = await c.call('PATCH', '/cm/cases/ui/status', manager, {
      cases: ids.map((id) => ({ id, status_id: 3 })),
    });
    expect(r.status).toBe(200);
    expect(
      r.body.data.map((x: { status: string; status_group_id: number }) => [x.status, x.status_group_id]),
    ).toEqual([
      ['DocUploaded', 2],
      ['DocUploaded', 2],
    ]);
    const unknown = await c.call('PATCH', '/cm/cases/ui/status', manager, {
      cases: [{ id: ids[0], status_id: 77 }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('status_id');
  });

  it('assigns and unassigns provider staff, single and bulk, keeping their name on the case', async () => {
    const [id] = await freshCases(1);
    const r = await c.call('PATCH', `/cm/cases/${id}`, manager, { user_id: agentId });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('The case was successfully assigned!');
    expect(r.body.data[0].assigned_user).toEqual({
      id: agentId,
      fname: 'Alex',
      lname: 'Agent',
      username: 'agent',
    });
    const notStaff = await c.call('PATCH', `/cm/cases/${id}`, manager, { user_id: adminId });
    expect(notStaff.status).toBe(400);
    expect(notStaff.body.message).toContain('user_id');
    const un = await c.call('PATCH', `/cm/cases/${id}`, manager, { user_id: null });
    expect(un.body.data[0].assigned_user).toBeNull();
    expect(un.body.message).toBe('The case was successfully unassigned!');
    const both = await c.call('PATCH', `/cm/cases/${id}`, manager, { user_id: agentId, status_id: 4 });
    expect(both.status).toBe(400);
    const ids = await freshCases(2);
    const bulk = await c.call('PUT', '/cm/cases', manager, {
      cases: ids.map((x) => ({ id: x, user_id: agentId })),
    });
    expect(bulk.body.message).toBe('The selected cases were successfully assigned!');
    const assignedTab = await c.call(
      'GET',
      `/cm/cases?filter_group=assigned&assigned_user_id=${agentId}&limit=1000`,
      manager,
    );
    expect(assignedTab.body.data.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining(ids));
    const [closed] = await freshCases(1, 'status_id = 10 and assigned_user_id is null');
    const closedAssign = await c.call('PATCH', `/cm/cases/${closed}`, manager, { user_id: agentId });
    expect(closedAssign.status).toBe(409);
  });

  it('flags and unflags, single and bulk', async () => {
    const [id] = await freshCases(1);
    const flag = await c.call('POST', `/cm/cases/${id}/flag`, manager, { flag: true, comment: 'check ARN' });
    expect(flag.status).toBe(200);
    expect(flag.body.message).toBe('Your action was a success!');
    const f = flag.body.data[0].flag;
    expect(f).toMatchObject({ is_flagged: true, comment: 'check ARN' });
    expect((await c.call('POST', `/cm/cases/${id}/flag`, manager, { comment: 'again' })).status).toBe(409);
    expect(
      (await c.call('PATCH', `/cm/cases/${id}/flag/${f.id + 100000}`, manager, { is_flagged: false })).status,
    ).toBe(404);
    const unflag = await c.call('PATCH', `/cm/cases/${id}/flag/${f.id}`, manager, { is_flagged: false });
    expect(unflag.body.data[0].flag).toMatchObject({ id: f.id, is_flagged: false });
    const ids = await freshCases(2);
    const bulk = await c.call('PUT', '/cm/cases/flag', manager, {
      flags: ids.map((x) => ({ case_id: x, is_flagged: true, comment: 'bulk' })),
    });
    expect(bulk.body.data.every((x: { flag: { is_flagged: boolean } }) => x.flag.is_flagged)).toBe(true);
    const bulkOff = await c.call('PUT', '/cm/cases/flag', manager, {
      flags: ids.map((x) => ({ case_id: x, is_flagged: false })),
    });
    expect(bulkOff.body.data.every((x: { flag: { is_flagged: boolean } }) => !x.flag.is_flagged)).toBe(true);
    expect((await history(ids[0]!)).map((h) => h.action)).toEqual(
      expect.arrayContaining(['Flagged: bulk', 'Unflagged']),
    );
  });

  it('records both ids while impersonating', async () => {
    const [id] = await freshCases(1, NEW_FREE, true);
    const ctx = demoCtx('acme', 'merchant.admin', { actor_id: adminId });
    await c.call('PATCH', `/cm/cases/${id}/edit`, ctx, { verdict_id: 6 });
    const h = (await history(id!)).at(-1)!;
    expect(h).toMatchObject({
      username: 'merchant.admin',
      user_id: demoUserId(
        ACME,
        DEMO_USERS.find((u) => u.username === 'merchant.admin')!,
      ),
      actor_id: adminId,
    });
    const api = await c.call('GET', `/cm/cases/${id}/history?limit=5`, ctx);
    expect(api.body.data[0]).toMatchObject({ user: 'merchant.admin', actor_id: adminId });
  });

  it('refuses every write to a read-only context with 403', async () => {
    const [id] = await freshCases(1, NEW_FREE, true);
    const ro = demoCtx('acme', 'readonly');
    const before = await caseRow(id!);
    const writes: Array<[string, string, unknown]> = [
      ['PATCH', `/cm/cases/${id}/edit`, { verdict_id: 4 }],
      ['PUT', '/cm/cases/edit', { cases: [{ id, verdict_id: 4 }] }],
      ['PATCH', `/cm/cases/${id}`, { status_id: 4 }],
      ['PUT', '/cm/cases', { cases: [{ id, status_id: 4 }] }],
      ['PATCH', '/cm/cases/ui/status', { cases: [{ id, status_id: 2 }] }],
      ['POST', `/cm/cases/${id}/flag`, { comment: 'x' }],
      ['PUT', '/cm/cases/flag', { flags: [{ case_id: id, is_flagged: true }] }],
      ['PATCH', `/cm/cases/${id}/flag/1`, { is_flagged: false }],
    ];
    for (const [method, url, body] of writes) {
      const r = await c.call(method, url, ro, body);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.message).toBe('Read-only users cannot change cases.');
    }
    expect(await caseRow(id!)).toEqual(before);
    expect((await c.call('GET', `/cm/cases/${id}`, ro)).status).toBe(200);
  });

  it('pages the history', async () => {
    const [id] = await freshCases(1);
    for (const v of [4, 5, 6]) await c.call('PATCH', `/cm/cases/${id}/edit`, manager, { verdict_id: v });
    const all = await c.call('GET', `/cm/cases/${id}/history`, manager);
    expect(all.body.data.length).toBeGreaterThanOrEqual(3);
    expect(all.body.data[0].action).toContain('-> Pending');
    const page = await c.call('GET', `/cm/cases/${id}/history?start=1&limit=1`, manager);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.pagination).toEqual({ total: all.body.data.length, limit: 1, start: 1 });
    expect((await c.call('GET', `/cm/cases/${id}/history?limit=-1`, manager)).status).toBe(400);
  });
});
