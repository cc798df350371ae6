import { ASSIGNABLE_ROLE_IDS } from '@portal/contracts';
import { badRequest, conflict, type Queryable } from '@portal/core';
import { isOpenGroup } from './case-columns';
import type { LockedCase } from './case-writes';

/** An active provider manager or agent of the tenant (cases.assignees). */
interface Assignee {
  id: number;
  username: string;
  fname: string;
  lname: string;
}

/** The assignee a write names; anyone else is a 400 naming the parameter. */
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

/** Assigns (or with null unassigns) a locked open case; returns the history action. */
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
