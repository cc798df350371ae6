import {
  CASE_MARK_MINUTES,
  CASE_STATUS,
  QC_ACTION,
  QC_MESSAGES,
  QC_QUEUE_STATUS,
  VERDICT,
  type InternalContext,
  type QcActionBody,
  type QcDnrBody,
  type QcCase,
} from '@portal/contracts';
import { badRequest, conflict, notFound, type Db, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { findCase } from '../cases/case-repository';
import { lockCases, statusEvent, write, type WriteResult } from '../cases/case-writes';
import { resolveScope, scopeConditions, type Scope } from '../scope/scope';
import { addHistory } from '../cases/case-history';
import { assertNotMarkedByOther, clearMarks, liveMarks, setMarks } from './case-marks';
import { enqueueRepresentmentTransport } from './transport-trigger';

async function withMark(db: Queryable, scope: Scope, id: number): Promise<QcCase | null> {
  const found = await findCase(db, scope, id);
  if (!found || found.status_id !== QC_QUEUE_STATUS) return null;
  return { ...found, mark: (await liveMarks(db, [id])).get(id) ?? null };
}

/** GET /cm/cases/qc/{id}: a case of the QC queue in scope (404 otherwise), with who has it open. */
export async function getQcCase(db: Db, ctx: InternalContext, id: number): Promise<QcCase> {
  const found = await withMark(db, await resolveScope(db, ctx), id);
  if (!found) throw notFound('Case not found in the QC queue.');
  return found;
}

/**
 * GET /cm/cases/qc/next: the caller's own open QC case, else the first free
 * one by due date, claimed (marked) in the same transaction; `skip locked`
 * keeps two reviewers asking at once from getting the same case. Read-only
 * callers see the case without claiming it.
 */
export async function nextQcCase(db: Db, ctx: InternalContext): Promise<QcCase> {
  return db.transaction(async (tx) => {
    const scope = await resolveScope(tx, ctx);
    const params: unknown[] = [];
    const conditions = scopeConditions(scope, 'c', params);
    params.push(QC_QUEUE_STATUS, ctx.user_id);
    const base = `from cases.cases c left join cases.case_marks k on k.case_id = c.id
      where ${conditions.join(' and ')} and c.status_id = $${params.length - 1}`;
    const live = `k.marked_at > now() - interval '${CASE_MARK_MINUTES} minutes'`;
    const own = await tx.query<{ id: number }>(
      `select c.id ${base} and k.type = 'qc-review' and k.user_id = $${params.length} and ${live}
       order by c.date_due, c.id limit 1 for update of c skip locked`,
      params,
    );
    const free =
      own.rows[0] ??
      (
        await tx.query<{ id: number }>(
          `select c.id ${base} and (k.case_id is null or not (${live}) or k.user_id is not distinct from $${params.length})
           order by c.date_due, c.id limit 1 for update of c skip locked`,
          params,
        )
      ).rows[0];
    if (!free) throw notFound(QC_MESSAGES.empty);
    const id = Number(free.id);
    if (!ctx.read_only) {
      await setMarks(tx, ctx, [id], 'qc-review', 1);
      await addHistory(tx, ctx, [{ caseId: id, action: 'Opened (qc-review)' }]);
    }
    return (await withMark(tx, scope, id))!;
  });
}

/** PATCH /cm/cases/qc: approve (the representment goes to transport). Do Not Represent has its own call. */
export function qcAction(db: Db, ctx: InternalContext, body: QcActionBody): Promise<WriteResult> {
  if (body.action_id !== QC_ACTION.Approve)
    throw badRequest('action_id: Do Not Represent goes through PATCH /cm/cases/qc/dnr.');
  return finishQc(db, ctx, body.id, 'approve');
}

/**
 * PATCH /cm/cases/qc/dnr: the QC case moves to Do Not Represent (status 4) and
 * is marked a loss. The gateway lets it through only when the tenant flag
 * CASE_QC_REVIEW.DO_NOT_REPRESENT is on (a path of its own, so that the flag
 * is a policy rule rather than a body check).
 */
export function qcDoNotRepresent(db: Db, ctx: InternalContext, body: QcDnrBody): Promise<WriteResult> {
  return finishQc(db, ctx, body.id, 'dnr');
}

/** Ends the QC of a case awaiting it (not opened by another reviewer) and releases the caller's mark. */
function finishQc(
  db: Db,
  ctx: InternalContext,
  id: number,
  outcome: 'approve' | 'dnr',
): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    if (c.status_id !== QC_QUEUE_STATUS)
      throw conflict(`Case ${c.id} is not awaiting QC review: it is ${c.status}.`);
    await assertNotMarkedByOther(tx, ctx, [c.id]);
    let action: string;
    let message: string;
    if (outcome === 'approve') {
      await tx.query(`update cases.cases set status_id = $2, updated_at = now() where id = $1`, [
        c.id,
        CASE_STATUS.TransportReady,
      ]);
      await emitEvent(tx, c.tenant_id, statusEvent(c, 'TransportReady'));
      await enqueueRepresentmentTransport(tx, ctx.tenant, c.id, ctx.user_id);
      action = 'QC approved: representment sent to transport';
      message = QC_MESSAGES.approved(c.id);
    } else {
      await tx.query(
        `update cases.cases set status_id = $2, verdict_id = $3, date_completed = current_date, updated_at = now() where id = $1`,
        [c.id, CASE_STATUS.DoNotRepresent, VERDICT.Loss],
      );
      await emitEvent(tx, c.tenant_id, statusEvent(c, 'DoNotRepresent', 'Loss'));
      action = 'QC: moved to Do Not Represent (marked a loss)';
      message = QC_MESSAGES.dnr(c.id);
    }
    await clearMarks(tx, ctx, [c.id]);
    return { ids: [c.id], history: [{ caseId: c.id, action }], message };
  });
}
