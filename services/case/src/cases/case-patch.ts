import type { CaseBulkPatchBody, InternalContext } from '@portal/contracts';
import { badRequest, type Db } from '@portal/core';
import { changeAssignee, findAssignee } from './case-assignment';
import { changeStatus } from './case-status';
import { lockCases, write, type WriteResult } from './case-writes';

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

const SINGLE_TYPE_MESSAGE = 'You can only operate on cases that share a single type.';

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
