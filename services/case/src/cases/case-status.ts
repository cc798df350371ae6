import { CASE_STATUS, VERDICT } from '@portal/contracts';
import { conflict, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { isOpenGroup } from './case-columns';
import { nameOf, statusEvent, type LockedCase } from './case-writes';

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
