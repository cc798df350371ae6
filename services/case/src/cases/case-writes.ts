import {
  ASSIGNABLE_ROLE_IDS,
  CASE_STATUS,
  STATUS_GROUP,
  VERDICT,
  type CaseBulkEditBody,
  type CaseBulkPatchBody,
  type CaseEditBody,
  type CaseRow,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, notFound, type Db, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { assertWritable, resolveScope, scopeConditions, type Scope } from '../scope/scope';
import { isOpenGroup } from './case-columns';
import { addHistory } from './case-history';
import { loadCaseRows } from './case-repository';

/** The state of a case a write checks, read under a row lock. */
export interface LockedCase {
  id: number;
  /** For the domain events of a change (design §11). */
  tenant_id: string;
  merchant_id: number;
  status_id: number;
  status_group_id: number;
  status: string;
  status_group: string;
  verdict_id: number;
  verdict: string;
  card_type_id: number;
  card_type: string;
  processor_invoice_id: string | null;
  dispute_amt: number;
  flag_id: number | null;
  is_flagged: boolean;
  assigned_user_id: number | null;
}

export interface WriteResult {
  message: string;
  data: CaseRow[];
}

/**
 * Locks the cases in the caller's scope. A single case out of scope is a 404;
 * in a bulk call the unknown ids are a 400 naming the parameter.
 */
export async function lockCases(
  tx: Queryable,
  scope: Scope,
  ids: readonly number[],
  param: string | null,
): Promise<Map<number, LockedCase>> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'c', params);
  params.push([...new Set(ids)]);
  const { rows } = await tx.query<LockedCase>(
    `select c.id, c.tenant_id, c.merchant_id, c.status_id, c.status_group_id, st.name as status, sg.name as status_group, c.verdict_id, v.name as verdict,
       c.card_type_id, ct.name as card_type, c.processor_invoice_id, c.dispute_amt, c.flag_id, c.is_flagged, c.assigned_user_id
     from cases.cases c
     join cases.statuses st on st.id = c.status_id
     join cases.status_groups sg on sg.id = c.status_group_id
     join cases.verdicts v on v.id = c.verdict_id
     join cases.card_types ct on ct.id = c.card_type_id
     where ${conditions.join(' and ')} and c.id = any($${params.length}::bigint[])
     order by c.id
     for update of c`,
    params,
  );
  const found = new Map(
    rows.map((r) => [
      Number(r.id),
      {
        ...r,
        id: Number(r.id),
        merchant_id: Number(r.merchant_id),
        flag_id: r.flag_id === null ? null : Number(r.flag_id),
      },
    ]),
  );
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length) {
    if (param === null) throw notFound('Case not found.');
    throw badRequest(`${param}: unknown case id(s) ${missing.join(', ')}.`);
  }
  return found;
}

async function nameOf(
  tx: Queryable,
  table: 'verdicts' | 'statuses' | 'currencies',
  id: number,
  param: string,
): Promise<string> {
  const column = table === 'currencies' ? 'code' : 'name';
  const { rows } = await tx.query<{ name: string }>(
    `select ${column} as name from cases.${table} where id = $1`,
    [id],
  );
  if (!rows[0]) throw badRequest(`${param}: unknown id ${id}.`);
  return rows[0].name;
}

/** Runs a case write: refuses read-only callers, resolves the scope, commits with its history rows. */
export async function write(
  db: Db,
  ctx: InternalContext,
  fn: (
    tx: Queryable,
    scope: Scope,
  ) => Promise<{ ids: number[]; history: Array<{ caseId: number; action: string }>; message: string }>,
): Promise<WriteResult> {
  assertWritable(ctx);
  return db.transaction(async (tx) => {
    const scope = await resolveScope(tx, ctx);
    const { ids, history, message } = await fn(tx, scope);
    await addHistory(tx, ctx, history);
    return { message, data: await loadCaseRows(tx, ids) };
  });
}

const EDIT_SUCCESS = 'Chargeback(s) successfully updated.';

/** PATCH /cm/cases/{id}/edit: verdict only, or the full edit (spec 2 §5). */
export function editCase(db: Db, ctx: InternalContext, id: number, body: CaseEditBody): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    const verdict = await nameOf(tx, 'verdicts', body.verdict_id, 'verdict_id');
    const sets = ['verdict_id = $2'];
    const params: unknown[] = [id, body.verdict_id];
    const changes = [`verdict ${c.verdict} -> ${verdict}`];
    const full =
      body.processor_invoice_id !== undefined ||
      body.case_amt !== undefined ||
      body.reason_code_id !== undefined ||
      body.currency_id !== undefined;
    if (full) {
      const invoice = body.processor_invoice_id?.trim() ?? '';
      if (c.processor_invoice_id && !invoice)
        throw badRequest('processor_invoice_id is required for this case.');
      if (body.processor_invoice_id !== undefined) {
        params.push(invoice || null);
        sets.push(`processor_invoice_id = $${params.length}`);
        changes.push(`processor invoice ${invoice || '(none)'}`);
      }
      if (body.case_amt === undefined) throw badRequest('case_amt is required for this case.');
      params.push(body.case_amt);
      sets.push(`dispute_amt = $${params.length}`);
      changes.push(`dispute amount ${Number(c.dispute_amt).toFixed(2)} -> ${body.case_amt.toFixed(2)}`);
      const labelsEditable =
        c.status_group_id === STATUS_GROUP.New || c.status_group_id === STATUS_GROUP.DoNotRepresent;
      if (labelsEditable) {
        if (body.reason_code_id === undefined)
          throw badRequest('reason_code_id is required while the case is New or Do Not Represent.');
        if (body.currency_id === undefined)
          throw badRequest('currency_id is required while the case is New or Do Not Represent.');
        const rc = await tx.query<{ code: string; card_type_id: number; is_fraud: boolean }>(
          `select code, card_type_id, is_fraud from cases.reason_codes where id = $1`,
          [body.reason_code_id],
        );
        const reason = rc.rows[0];
        if (!reason) throw badRequest(`reason_code_id: unknown id ${body.reason_code_id}.`);
        if (reason.card_type_id !== c.card_type_id) {
          throw badRequest(`reason_code_id: ${reason.code} is not a ${c.card_type} reason code.`);
        }
        const currency = await nameOf(tx, 'currencies', body.currency_id, 'currency_id');
        params.push(body.reason_code_id, reason.is_fraud, body.currency_id);
        sets.push(
          `reason_code_id = $${params.length - 2}`,
          `is_fraud = $${params.length - 1}`,
          `dispute_currency_id = $${params.length}`,
        );
        changes.push(`reason code ${reason.code}`, `currency ${currency}`);
      } else if (body.reason_code_id !== undefined || body.currency_id !== undefined) {
        throw badRequest(
          'reason_code_id and currency_id can only be changed while the case is New or Do Not Represent.',
        );
      }
    }
    await tx.query(`update cases.cases set ${sets.join(', ')}, updated_at = now() where id = $1`, params);
    if (body.verdict_id !== c.verdict_id) await emitEvent(tx, c.tenant_id, verdictEvent(c, verdict));
    return {
      ids: [id],
      history: [{ caseId: id, action: `Edited: ${changes.join('; ')}` }],
      message: EDIT_SUCCESS,
    };
  });
}

/** PUT /cm/cases/edit: bulk verdict, all or nothing. */
export function bulkEditCases(db: Db, ctx: InternalContext, body: CaseBulkEditBody): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const ids = body.cases.map((c) => c.id);
    const locked = await lockCases(tx, scope, ids, 'cases');
    const history = [];
    for (const [i, item] of body.cases.entries()) {
      const verdict = await nameOf(tx, 'verdicts', item.verdict_id, `cases[${i}].verdict_id`);
      await tx.query(`update cases.cases set verdict_id = $2, updated_at = now() where id = $1`, [
        item.id,
        item.verdict_id,
      ]);
      const was = locked.get(item.id)!;
      if (item.verdict_id !== was.verdict_id) await emitEvent(tx, was.tenant_id, verdictEvent(was, verdict));
      history.push({
        caseId: item.id,
        action: `Edited: verdict ${locked.get(item.id)!.verdict} -> ${verdict}`,
      });
    }
    return { ids, history, message: EDIT_SUCCESS };
  });
}

/** CASE_STATUS_CHANGED (with the verdict when the change sets one). */
export function statusEvent(c: LockedCase, status: string, verdict?: string) {
  const data = { case_id: c.id, previous_status: c.status, status, ...(verdict ? { verdict } : {}) };
  return { type: 'CASE_STATUS_CHANGED' as const, merchant_id: c.merchant_id, data };
}

export function verdictEvent(c: LockedCase, verdict: string) {
  const data = { case_id: c.id, previous_verdict: c.verdict, verdict };
  return { type: 'CASE_VERDICT_CHANGED' as const, merchant_id: c.merchant_id, data };
}

/** Applies one status change with the DNR/revert rules (spec 2 §4); returns the history action. */
export async function changeStatus(
  tx: Queryable,
  c: LockedCase,
  statusId: number,
  param: string,
): Promise<string> {
  const target = await nameOf(tx, 'statuses', statusId, param);
  if (statusId === CASE_STATUS.DoNotRepresent) {
    if (c.status_id !== CASE_STATUS.New && c.status_id !== CASE_STATUS.Working) {
      throw conflict(`Case ${c.id} cannot be moved to Do Not Represent: it is ${c.status}.`);
    }
    await tx.query(
      `update cases.cases set status_id = 4, verdict_id = $2, date_completed = current_date, updated_at = now() where id = $1`,
      [c.id, VERDICT.Loss],
    );
    await emitEvent(tx, c.tenant_id, statusEvent(c, target, 'Loss'));
    return 'Moved to Do Not Represent (marked a loss)';
  }
  if (statusId === CASE_STATUS.New && c.status_id === CASE_STATUS.DoNotRepresent) {
    await tx.query(
      `update cases.cases set status_id = 1, verdict_id = $2, date_completed = null, updated_at = now() where id = $1`,
      [c.id, VERDICT.VerdictPending],
    );
    await emitEvent(tx, c.tenant_id, statusEvent(c, target, 'Verdict Pending'));
    return 'Reverted Do Not Represent';
  }
  if (!isOpenGroup(c.status_group_id))
    throw conflict(`Case ${c.id} cannot change status: it is ${c.status}.`);
  await tx.query(
    `update cases.cases set status_id = $2::smallint, date_completed = case when $2::int = 10 then current_date else date_completed end, updated_at = now()
     where id = $1`,
    [c.id, statusId],
  );
  if (statusId !== c.status_id) await emitEvent(tx, c.tenant_id, statusEvent(c, target));
  return `Status changed from ${c.status} to ${target}`;
}

interface Assignee {
  id: number;
  username: string;
  fname: string;
  lname: string;
}

export async function findAssignee(
  tx: Queryable,
  tenant: string,
  userId: number,
  param: string,
): Promise<Assignee> {
  const { rows } = await tx.query<Assignee>(
    `select id, username, fname, lname from cases.assignees where tenant_id = $1 and id = $2 and is_active and role_id = any($3::int[])`,
    [tenant, userId, ASSIGNABLE_ROLE_IDS],
  );
  if (!rows[0])
    throw badRequest(
      `${param}: user ${userId} cannot be assigned cases (active provider managers and agents only).`,
    );
  return rows[0];
}

export async function changeAssignee(
  tx: Queryable,
  c: LockedCase,
  assignee: Assignee | null,
): Promise<string> {
  if (assignee && !isOpenGroup(c.status_group_id))
    throw conflict(`Case ${c.id} cannot be assigned: it is ${c.status_group}.`);
  await tx.query(
    `update cases.cases set assigned_user_id = $2, assigned_fname = $3, assigned_lname = $4, assigned_username = $5, updated_at = now()
     where id = $1`,
    [
      c.id,
      assignee?.id ?? null,
      assignee?.fname ?? null,
      assignee?.lname ?? null,
      assignee?.username ?? null,
    ],
  );
  return assignee ? `Assigned to ${assignee.fname} ${assignee.lname} (${assignee.username})` : 'Unassigned';
}

/** PATCH /cm/cases/{id}: status_id (DNR 4, revert 1, representment statuses) or user_id (assign; null unassigns). */
export function patchCase(
  db: Db,
  ctx: InternalContext,
  id: number,
  body: { status_id?: number; user_id?: number | null },
): Promise<WriteResult> {
  const hasStatus = body.status_id !== undefined;
  const hasUser = body.user_id !== undefined;
  if (hasStatus === hasUser) throw badRequest('Send either status_id or user_id.');
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    if (hasStatus) {
      const action = await changeStatus(tx, c, body.status_id!, 'status_id');
      return { ids: [id], history: [{ caseId: id, action }], message: 'Your action was a success!' };
    }
    const assignee =
      body.user_id === null ? null : await findAssignee(tx, scope.tenant, body.user_id!, 'user_id');
    const action = await changeAssignee(tx, c, assignee);
    return {
      ids: [id],
      history: [{ caseId: id, action }],
      message: assignee ? 'The case was successfully assigned!' : 'The case was successfully unassigned!',
    };
  });
}

export const SINGLE_TYPE_MESSAGE = 'You can only operate on cases that share a single type.';

/** PUT /cm/cases: bulk assign/unassign, or bulk DNR/revert of cases sharing one status. */
export function bulkPatchCases(db: Db, ctx: InternalContext, body: CaseBulkPatchBody): Promise<WriteResult> {
  const withStatus = body.cases.filter((c) => c.status_id !== undefined).length;
  const withUser = body.cases.filter((c) => c.user_id !== undefined).length;
  if (!(
    (withStatus === body.cases.length && withUser === 0) ||
    (withUser === body.cases.length && withStatus === 0)
  )) {
    throw badRequest('cases: every item needs either status_id or user_id, the same for all.');
  }
  return write(db, ctx, async (tx, scope) => {
    const ids = body.cases.map((c) => c.id);
    const locked = await lockCases(tx, scope, ids, 'cases');
    const history = [];
    if (withStatus) {
      if (
        new Set([...locked.values()].map((c) => c.status_id)).size > 1 ||
        new Set(body.cases.map((c) => c.status_id)).size > 1
      ) {
        throw badRequest(SINGLE_TYPE_MESSAGE);
      }
      for (const [i, item] of body.cases.entries()) {
        history.push({
          caseId: item.id,
          action: await changeStatus(tx, locked.get(item.id)!, item.status_id!, `cases[${i}].status_id`),
        });
      }
      return { ids, history, message: 'Your action was a success!' };
    }
    let assigned = false;
    for (const [i, item] of body.cases.entries()) {
      const assignee =
        item.user_id === null
          ? null
          : await findAssignee(tx, scope.tenant, item.user_id!, `cases[${i}].user_id`);
      assigned ||= assignee !== null;
      history.push({ caseId: item.id, action: await changeAssignee(tx, locked.get(item.id)!, assignee) });
    }
    return {
      ids,
      history,
      message: assigned
        ? 'The selected cases were successfully assigned!'
        : 'The selected cases were successfully unassigned!',
    };
  });
}

/** PATCH /cm/cases/ui/status: bulk status patch. */
export function bulkStatusPatch(
  db: Db,
  ctx: InternalContext,
  cases: ReadonlyArray<{ id: number; status_id: number }>,
): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const ids = cases.map((c) => c.id);
    const locked = await lockCases(tx, scope, ids, 'cases');
    const history = [];
    for (const [i, item] of cases.entries()) {
      history.push({
        caseId: item.id,
        action: await changeStatus(tx, locked.get(item.id)!, item.status_id, `cases[${i}].status_id`),
      });
    }
    return { ids, history, message: 'Your action was a success!' };
  });
}

/** Sets or clears the flag of a locked case; a new flag row each time a case is flagged. */
async function setFlag(
  tx: Queryable,
  ctx: InternalContext,
  c: LockedCase,
  isFlagged: boolean,
  comment: string | null | undefined,
): Promise<string | null> {
  if (isFlagged) {
    if (c.is_flagged && c.flag_id !== null) {
      if (comment === undefined) return null;
      await tx.query(`update cases.case_flags set comment = $2, updated_at = now() where id = $1`, [
        c.flag_id,
        comment,
      ]);
      return `Flag comment changed: ${comment ?? ''}`;
    }
    const { rows } = await tx.query<{ id: number }>(
      `insert into cases.case_flags (tenant_id, case_id, is_flagged, comment, created_by) values ($1, $2, true, $3, $4) returning id`,
      [ctx.tenant, c.id, comment ?? null, ctx.user_id],
    );
    await tx.query(
      `update cases.cases set flag_id = $2, is_flagged = true, updated_at = now() where id = $1`,
      [c.id, rows[0]!.id],
    );
    return comment ? `Flagged: ${comment}` : 'Flagged';
  }
  if (!c.is_flagged) return null;
  await tx.query(`update cases.case_flags set is_flagged = false, updated_at = now() where id = $1`, [
    c.flag_id,
  ]);
  await tx.query(`update cases.cases set is_flagged = false, updated_at = now() where id = $1`, [c.id]);
  return 'Unflagged';
}

const FLAG_SUCCESS = 'Your action was a success!';

/** POST /cm/cases/{id}/flag. */
export function flagCase(
  db: Db,
  ctx: InternalContext,
  id: number,
  body: { flag?: boolean; comment?: string | null },
): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    const flag = body.flag ?? true;
    if (flag && c.is_flagged) throw conflict('The case is already flagged.');
    if (!flag && !c.is_flagged) throw conflict('The case is not flagged.');
    const action = await setFlag(tx, ctx, c, flag, body.comment);
    return { ids: [id], history: action ? [{ caseId: id, action }] : [], message: FLAG_SUCCESS };
  });
}

/** PATCH /cm/cases/{id}/flag/{flagId}: flagId must be the case's current flag. */
export function patchFlag(
  db: Db,
  ctx: InternalContext,
  id: number,
  flagId: number,
  body: { is_flagged: boolean; comment?: string | null },
): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    if (c.flag_id !== flagId) throw notFound('Flag not found.');
    let action: string | null;
    if (body.is_flagged && !c.is_flagged) {
      await tx.query(
        `update cases.case_flags set is_flagged = true, comment = coalesce($2, comment), updated_at = now() where id = $1`,
        [flagId, body.comment ?? null],
      );
      await tx.query(`update cases.cases set is_flagged = true, updated_at = now() where id = $1`, [id]);
      action = 'Flagged again';
    } else {
      action = await setFlag(tx, ctx, c, body.is_flagged, body.comment);
    }
    return { ids: [id], history: action ? [{ caseId: id, action }] : [], message: FLAG_SUCCESS };
  });
}

/** PUT /cm/cases/flag: bulk flag/unflag, all or nothing. */
export function bulkFlag(
  db: Db,
  ctx: InternalContext,
  flags: ReadonlyArray<{ case_id: number; is_flagged: boolean; comment?: string | null }>,
): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const ids = flags.map((f) => f.case_id);
    const locked = await lockCases(tx, scope, ids, 'flags');
    const history = [];
    for (const f of flags) {
      const action = await setFlag(tx, ctx, locked.get(f.case_id)!, f.is_flagged, f.comment);
      if (action) history.push({ caseId: f.case_id, action });
      // Later items of the same case see this change.
      const c = locked.get(f.case_id)!;
      const now = await tx.query<{ flag_id: number | null; is_flagged: boolean }>(
        `select flag_id, is_flagged from cases.cases where id = $1`,
        [c.id],
      );
      c.flag_id = now.rows[0]!.flag_id === null ? null : Number(now.rows[0]!.flag_id);
      c.is_flagged = now.rows[0]!.is_flagged;
    }
    return { ids: [...new Set(ids)], history, message: FLAG_SUCCESS };
  });
}
