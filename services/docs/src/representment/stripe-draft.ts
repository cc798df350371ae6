import { CASE_STATUS, PROCESSOR_SUBMISSION_MESSAGES as P, type InternalContext } from '@portal/contracts';
import { badRequest, conflict, type Db, type Queryable } from '@portal/core';
import { enqueueTransport } from './jobs';
import { connectorOfCase } from './stripe-transport';
import { stagedDraftVersion } from './stripe-submissions';
import { setCaseStatus } from './version-repository';

/**
 * Save as draft at Stripe (issue 32): a version of a case a processor
 * connection owns may be staged there (`submit: false`) instead of submitted;
 * the case goes back to Working once it is. A later upload submits, and so
 * does 'Submit the draft to Stripe', which sends the staged version again
 * with `submit: true` through a new transport job (its own idempotency keys).
 */
export async function assertDraftable(db: Queryable, tenant: string, caseId: number): Promise<void> {
  if (!(await connectorOfCase(db, tenant, caseId))) throw badRequest(P.notConnected);
}

/** Submits the staged draft: the version turns to 'submit', the case to TransportReady, one transport job. */
export async function submitStagedDraft(db: Db, ctx: InternalContext, caseId: number) {
  if (!(await connectorOfCase(db, ctx.tenant, caseId))) throw badRequest(P.notConnected);
  const staged = await stagedDraftVersion(db, ctx.tenant, caseId);
  if (!staged) throw conflict(P.noDraft);
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `update docs.representment_versions set processor_mode = 'submit', submission_id = null, submitted_at = null
        where id = $1 and processor_mode = 'draft'`,
      [staged.id],
    );
    if (!rowCount) throw conflict(P.noDraft);
    const previous = await setCaseStatus(tx, {
      tenant: ctx.tenant,
      caseId,
      from: [CASE_STATUS.Working],
      to: CASE_STATUS.TransportReady,
      action: `Representment v${staged.version}: the draft at Stripe submitted`,
      userId: ctx.user_id,
      username: ctx.username,
    });
    if (previous === null) throw conflict(P.notWorking);
    const job = await enqueueTransport(tx, ctx.tenant, caseId, ctx.user_id);
    return { message: P.submitQueued, job_id: job.id };
  });
}
