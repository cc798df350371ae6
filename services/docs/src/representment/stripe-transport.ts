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
import { explainStripeSubmissionError } from './stripe-errors';
import { evidenceFieldsOf, fetchBuilderAnswers, type EvidenceFields } from './stripe-evidence';
import { processorModeOf, recordAttempt, type AttemptRecord, type ProcessorMode } from './stripe-submissions';
import { setCaseStatus } from './version-repository';

/**
 * Evidence out (issue 32, design §14): the transport adapter of a case a
 * processor connection owns. It sends the compiled PDF through Stripe's Files
 * API (purpose dispute_evidence) and the evidence fields (the case builder's
 * answers and the Case Comments, stripe-evidence.ts) to the dispute with
 * `submit: true`, or `submit: false` for a version saved as a draft, each call with an idempotency key derived from the
 * transport job's id, so a retried job reaches Stripe exactly once. Evidence
 * after the due date, or for a dispute no longer waiting for it, is refused
 * before any call. Stripe's refusals come back in words a merchant reads
 * (stripe-errors.ts); every attempt is recorded for the case's 'Stripe
 * submission' panel (stripe-submissions.ts).
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

/** What the transport job knows of the submission beyond the document: for the record and the mode. */
export interface TransportAttempt {
  jobId: string;
  attempt: number;
  maxAttempts: number;
  versionId: number | null;
  /** draft: staged at Stripe (`submit: false`), the case back to Working; submit: `submit: true`. */
  mode: ProcessorMode;
  record: (r: AttemptRecord) => Promise<void>;
}

export class StripeTransport implements CardNetworkAdapter {
  readonly name = 'stripe';

  constructor(
    private readonly env: Env,
    private readonly owner: ConnectorCase,
    private readonly evidence: {
      readDocument: (key: string) => Promise<Buffer>;
      /** The evidence fields (builder answers and Case Comments), read before any call. */
      fields: () => Promise<EvidenceFields>;
    },
    private readonly run: TransportAttempt,
    private readonly today = new Date().toISOString().slice(0, 10),
  ) {}

  async submit(s: CardNetworkSubmission): Promise<{ submissionId: string; draft: boolean }> {
    const o = this.owner;
    const draft = this.run.mode === 'draft';
    const record = (r: Pick<AttemptRecord, 'state' | 'final' | 'fields' | 'fileId' | 'error'>) =>
      this.run.record({
        ...r,
        tenant: s.tenant,
        caseId: s.caseId,
        versionId: this.run.versionId,
        jobId: this.run.jobId,
        attempt: this.run.attempt,
        processor: o.processor,
        connectionId: o.connection_id,
        disputeId: o.dispute_id,
        mode: this.run.mode,
      });
    const refuse = async (message: string) => {
      await record({
        state: 'refused',
        final: true,
        fields: [],
        fileId: null,
        error: { message, code: null, status: null },
      });
      return new JobError(message, { permanent: true });
    };
    if (o.date_due < this.today)
      throw await refuse(
        `The response was due on ${o.date_due}: Stripe no longer accepts evidence for this dispute, so nothing was sent.`,
      );
    if (o.stage !== 'open')
      throw await refuse(
        `Stripe is not waiting for evidence on this dispute any more (it is ${o.stage === 'review' ? 'under review' : o.stage}), so nothing was sent.`,
      );
    const apiKey = connectorSecretBox(this.env).open(
      o.api_key_sealed,
      `${s.tenant}:${o.connection_id}:api_key`,
    );
    const fields = await this.evidence.fields();
    const names = [...Object.keys(fields), 'uncategorized_file'];
    const bytes = await this.evidence.readDocument(s.documentKey);
    try {
      const r = await stripeFor(this.env)
        .client({ apiKey })
        .submitEvidence({
          disputeId: o.dispute_id,
          document: { filename: `case-${s.caseId}-v${s.version}.pdf`, bytes },
          fields,
          submit: !draft,
          idempotencyKey: s.idempotencyKey,
        });
      await record({ state: 'sent', final: true, fields: names, fileId: r.fileId, error: null });
      return { submissionId: `${r.submissionId}/${r.fileId}`, draft };
    } catch (error) {
      const explained = explainStripeSubmissionError(error);
      const last = !explained.retryable || this.run.attempt >= this.run.maxAttempts;
      await record({
        state: explained.retryable ? 'failed' : 'refused',
        final: last,
        fields: names,
        fileId: null,
        error: explained,
      });
      if (error instanceof ConnectorError || explained.code !== null)
        throw new JobError(explained.message, { permanent: !explained.retryable, cause: error });
      throw error;
    }
  }
}

/**
 * The adapter of a case's transport: the processor's when a connection owns the case, else the card
 * network's (the simulator here). For Stripe, the evidence fields are the case builder's answers (asked
 * of the builder service, outside any transaction) and the Case Comments.
 */
export async function transportAdapterFor(
  ctx: JobContext<unknown>,
  caseId: number,
  fallback: CardNetworkAdapter,
  evidence: {
    readDocument: (key: string) => Promise<Buffer>;
    comment: string | null;
    /** The version sent (0 or null: a seeded document without a version row). */
    versionId?: number | null;
  },
): Promise<CardNetworkAdapter> {
  const owner = await connectorOfCase(ctx.db, ctx.tenant, caseId);
  if (!owner || owner.processor !== 'stripe') return fallback;
  const env = ctx.env;
  if (!env) throw new JobError('The worker has no configuration for connectors.', { permanent: true });
  const versionId = evidence.versionId ? evidence.versionId : null;
  const mode = versionId ? await processorModeOf(ctx.db, versionId) : 'submit';
  return new StripeTransport(
    env,
    owner,
    {
      readDocument: evidence.readDocument,
      fields: async () =>
        evidenceFieldsOf(
          await fetchBuilderAnswers(env, ctx.tenant, caseId, `transport-${ctx.id}`),
          evidence.comment,
        ),
    },
    {
      jobId: ctx.id,
      attempt: ctx.attempt,
      maxAttempts: ctx.maxAttempts,
      versionId,
      mode,
      record: (r) => recordAttempt(ctx.db, r),
    },
  );
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
