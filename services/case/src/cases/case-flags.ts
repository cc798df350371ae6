import type { InternalContext } from '@portal/contracts';
import { conflict, notFound, type Db, type Queryable } from '@portal/core';
import { lockCases, write, type LockedCase, type WriteResult } from './case-writes';

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
