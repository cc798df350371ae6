import { CASE_STATUS } from '@portal/contracts';
import { JobError, readableError, type JobContext } from '@portal/jobs';
import type { Env, Queryable } from '@portal/core';
import {
  ConnectorError,
  connectorSecretBox,
  stripeConnector,
  type ProcessorConnector,
} from '@portal/connectors';
import type { CardNetworkAdapter, CardNetworkSubmission } from './card-network';
import { setCaseStatus } from './version-repository';

/**
 * Evidence out (issue 32, design §14): the transport adapter of a case a
 * processor connection owns. It sends the compiled PDF through Stripe's Files
 * API (purpose dispute_evidence) and the evidence fields to the dispute with
 * `submit: true`, each call with an idempotency key derived from the
 * transport job's id, so a retried job reaches Stripe exactly once. Evidence
 * after the due date, or for a dispute no longer waiting for it, is refused
 * before any call. Stripe's refusals come back in words a merchant reads.
 */
interface ConnectorCase {
  processor: string;
  dispute_id: string;
  stage: string;
  connection_id: string;
  api_key_sealed: string;
  date_due: string;
}

/** The connector that owns a case, read from the case service's declared view; null for other cases. */
export async function connectorOfCase(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<ConnectorCase | null> {
  const { rows } = await db.query<ConnectorCase>(
    `select processor, dispute_id, stage, connection_id::text as connection_id, api_key_sealed,
            to_char(date_due, 'YYYY-MM-DD') as date_due
       from cases_api.connector_cases where tenant_id = $1 and case_id = $2`,
    [tenant, caseId],
  );
  return rows[0] ?? null;
}

const connectors = new Map<string, ProcessorConnector>();
function stripeFor(env: Env) {
  const key = env.STRIPE_API_BASE ?? '';
  let c = connectors.get(key);
  if (!c) {
    c = stripeConnector({ apiBase: env.STRIPE_API_BASE });
    connectors.set(key, c);
  }
  return c;
}

export class StripeTransport implements CardNetworkAdapter {
  readonly name = 'stripe';

  constructor(
    private readonly env: Env,
    private readonly owner: ConnectorCase,
    private readonly evidence: {
      readDocument: (key: string) => Promise<Buffer>;
      /** The Case Comments entered with the upload. */
      comment: string | null;
    },
    private readonly today = new Date().toISOString().slice(0, 10),
  ) {}

  async submit(s: CardNetworkSubmission): Promise<{ submissionId: string }> {
    const o = this.owner;
    if (o.date_due < this.today)
      throw new JobError(
        `The response was due on ${o.date_due}: Stripe no longer accepts evidence for this dispute, so nothing was sent.`,
        { permanent: true },
      );
    if (o.stage !== 'open')
      throw new JobError(
        `Stripe is not waiting for evidence on this dispute any more (it is ${o.stage === 'review' ? 'under review' : o.stage}), so nothing was sent.`,
        { permanent: true },
      );
    const apiKey = connectorSecretBox(this.env).open(
      o.api_key_sealed,
      `${s.tenant}:${o.connection_id}:api_key`,
    );
    const bytes = await this.evidence.readDocument(s.documentKey);
    try {
      const r = await stripeFor(this.env)
        .client({ apiKey })
        .submitEvidence({
          disputeId: o.dispute_id,
          document: { filename: `case-${s.caseId}-v${s.version}.pdf`, bytes },
          fields: this.evidence.comment ? { uncategorized_text: this.evidence.comment.slice(0, 20_000) } : {},
          submit: true,
          idempotencyKey: s.idempotencyKey,
        });
      return { submissionId: `${r.submissionId}/${r.fileId}` };
    } catch (error) {
      if (error instanceof ConnectorError)
        throw new JobError(error.message, { permanent: !error.retryable, cause: error });
      throw error;
    }
  }
}

/**
 * The adapter of a case's transport: the processor's when a connection owns the case, else the card
 * network's (the simulator here).
 */
export async function transportAdapterFor(
  ctx: JobContext<unknown>,
  caseId: number,
  fallback: CardNetworkAdapter,
  evidence: { readDocument: (key: string) => Promise<Buffer>; comment: string | null },
): Promise<CardNetworkAdapter> {
  const owner = await connectorOfCase(ctx.db, ctx.tenant, caseId);
  if (!owner || owner.processor !== 'stripe') return fallback;
  if (!ctx.env) throw new JobError('The worker has no configuration for connectors.', { permanent: true });
  return new StripeTransport(ctx.env, owner, evidence);
}

/**
 * A submission that will not be tried again (refused, or the last attempt): the case goes back to
 * Working with the reason in its history, so the merchant reads why and can upload again.
 */
export async function recordTransportFailure(ctx: JobContext<unknown>, caseId: number, error: unknown) {
  const last = (error instanceof JobError && error.permanent) || ctx.attempt >= ctx.maxAttempts;
  if (!last) return;
  await ctx.once('transport-failed', (tx) =>
    setCaseStatus(tx, {
      tenant: ctx.tenant,
      caseId,
      from: [CASE_STATUS.TransportProcessing],
      to: CASE_STATUS.Working,
      action: `Representment not delivered: ${readableError(error)}`,
      userId: null,
      username: 'system',
    }),
  );
}
