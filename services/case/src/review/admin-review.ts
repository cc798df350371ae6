import {
  CASE_STATUS,
  REVIEW_ACTION,
  REVIEW_ACTIONS,
  REVIEW_MESSAGES,
  type InternalContext,
  type ReviewCase,
  type ReviewPatchBody,
} from '@portal/contracts';
import { badRequest, notFound, type Db } from '@portal/core';
import { findCase } from '../cases/case-repository';
import { changeAssignee, findAssignee } from '../cases/case-assignment';
import { changeStatus } from '../cases/case-status';
import { lockCases, write, type WriteResult } from '../cases/case-writes';
import { resolveScope } from '../scope/scope';

const actionName = (id: number) => REVIEW_ACTIONS.find((a) => a.id === id)?.name ?? `Action ${id}`;

/** GET /cm/review/{id}: the case with its review notes, newest first. */
export async function getReviewCase(db: Db, ctx: InternalContext, id: number): Promise<ReviewCase> {
  const found = await findCase(db, await resolveScope(db, ctx), id);
  if (!found) throw notFound('Case not found.');
  const { rows } = await db.query<{
    id: number;
    action_id: number;
    note: string | null;
    username: string | null;
    date_created: string;
  }>(
    `select id, action_id, note, username, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created
     from cases.case_reviews where case_id = $1 order by created_at desc, id desc limit 100`,
    [id],
  );
  return {
    ...found,
    reviews: rows.map((r) => ({
      ...r,
      id: Number(r.id),
      action_id: Number(r.action_id),
      action: actionName(r.action_id),
    })),
  };
}

/** PATCH /cm/review: actions by id (optional note) or assignment, all or nothing. */
export function patchReview(db: Db, ctx: InternalContext, body: ReviewPatchBody): Promise<WriteResult> {
  const actions = body.cases.filter((c) => c.action_id !== undefined && c.assign_id === undefined).length;
  const assigns = body.cases.filter((c) => c.assign_id !== undefined && c.action_id === undefined).length;
  if (actions !== body.cases.length && assigns !== body.cases.length)
    throw badRequest('cases: every item needs either action_id or assign_id, the same for all.');
  for (const [i, item] of body.cases.entries()) {
    if (item.action_id !== undefined && !REVIEW_ACTIONS.some((a) => a.id === item.action_id))
      throw badRequest(`cases[${i}].action_id: unknown action ${item.action_id}.`);
    if (item.assign_id !== undefined && item.note != null)
      throw badRequest(`cases[${i}].note: a note goes with an action_id only.`);
  }
  return write(db, ctx, async (tx, scope) => {
    const ids = body.cases.map((c) => c.id);
    const locked = await lockCases(tx, scope, ids, ids.length === 1 ? null : 'cases');
    const history: Array<{ caseId: number; action: string }> = [];
    if (assigns) {
      let assigned = false;
      for (const [i, item] of body.cases.entries()) {
        const assignee =
          item.assign_id === null
            ? null
            : await findAssignee(tx, scope.tenant, item.assign_id!, `cases[${i}].assign_id`);
        assigned ||= assignee !== null;
        history.push({
          caseId: item.id,
          action: `Review: ${await changeAssignee(tx, locked.get(item.id)!, assignee)}`,
        });
      }
      const one = ids.length === 1;
      const message = assigned
        ? one
          ? 'The case was successfully assigned!'
          : 'The selected cases were successfully assigned!'
        : one
          ? 'The case was successfully unassigned!'
          : 'The selected cases were successfully unassigned!';
      return { ids, history, message };
    }
    for (const [i, item] of body.cases.entries()) {
      const c = locked.get(item.id)!;
      let done: string = actionName(item.action_id!);
      if (item.action_id === REVIEW_ACTION.DoNotRepresent)
        done = await changeStatus(tx, c, CASE_STATUS.DoNotRepresent, `cases[${i}].action_id`);
      if (item.action_id === REVIEW_ACTION.RevertToNew)
        done = await changeStatus(tx, c, CASE_STATUS.New, `cases[${i}].action_id`);
      const note = item.note?.trim() || null;
      await tx.query(
        `insert into cases.case_reviews (tenant_id, case_id, action_id, note, user_id, username) values ($1, $2, $3, $4, $5, $6)`,
        [scope.tenant, item.id, item.action_id, note, ctx.user_id, ctx.username],
      );
      history.push({ caseId: item.id, action: `Review: ${done}${note ? ` (note: ${note})` : ''}` });
    }
    return { ids, history, message: REVIEW_MESSAGES.reviewed };
  });
}
