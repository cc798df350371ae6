import type { InternalContext, RemedyBody } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';

/** cases.remedy_submissions (migration 011). */

/** Minutes after which an 'attaching' row is a crashed attempt and no longer blocks the case. */
const STALE_ATTACH_MINUTES = 10;

/**
 * Reserves the case's one submission ('attaching'), committed before the
 * docs service is called so that a second submit of the same case waits or is
 * refused; null when the case already has one.
 */
export async function reserveSubmission(
  db: Db,
  ctx: InternalContext,
  caseId: number,
  body: RemedyBody,
  document: { sha256: string; pages: number; size: number },
): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.query(
      `delete from cases.remedy_submissions where tenant_id = $1 and case_id = $2 and state = 'attaching'
         and created_at < now() - interval '${STALE_ATTACH_MINUTES} minutes'`,
      [ctx.tenant, caseId],
    );
    const { rows } = await tx.query<{ id: number }>(
      `insert into cases.remedy_submissions (tenant_id, case_id, dl, doc, document_sha256, document_pages,
         document_size, submitted_by, submitted_by_id, actor_id, request_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       on conflict (tenant_id, case_id) do nothing returning id`,
      [
        ctx.tenant,
        caseId,
        JSON.stringify(body.dl),
        JSON.stringify(body.doc),
        document.sha256,
        document.pages,
        document.size,
        ctx.username,
        ctx.user_id,
        ctx.actor_id,
        ctx.request_id,
      ],
    );
    return rows[0] ? Number(rows[0].id) : null;
  });
}

/** The attachment failed: the reservation goes, the case stays eligible. */
export async function releaseSubmission(db: Queryable, id: number): Promise<void> {
  await db.query(`delete from cases.remedy_submissions where id = $1 and state = 'attaching'`, [id]);
}

export async function completeSubmission(
  tx: Queryable,
  id: number,
  r: { version: number; jobId: string },
): Promise<void> {
  await tx.query(
    `update cases.remedy_submissions set state = 'submitted', representment_version = $2, compile_job_id = $3,
       submitted_at = now() where id = $1`,
    [id, r.version, r.jobId],
  );
}
