import { Type, type Static } from '@sinclair/typebox';
import { Id, Text } from './common';

const Uuid = () => Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

/**
 * Processor connectors (issue 32, design §14). A merchant's connection to its
 * processor's account: Stripe first. The API key and the webhook signing
 * secret go in once and never come back out: a connection shows only the
 * key's last four characters.
 */
export const CONNECTOR_PROCESSORS = ['stripe'] as const;

export const ConnectionView = Type.Object({
  id: Uuid(),
  processor: Type.Union(CONNECTOR_PROCESSORS.map((p) => Type.Literal(p))),
  merchant_id: Type.Integer(),
  account_id: Type.String(),
  account_name: Type.Union([Type.String(), Type.Null()]),
  api_key_last4: Type.String(),
  /** Whether the webhook signing secret is set (events are refused until it is). */
  has_webhook_secret: Type.Boolean(),
  mids: Type.Array(Type.Object({ id: Type.Integer(), mid: Type.String() })),
  /** The path (under the tenant's own domain) to give the processor as the webhook endpoint. */
  webhook_path: Type.String(),
  created_at: Type.String(),
  last_event_at: Type.Union([Type.String(), Type.Null()]),
  /** The backfill of the last 120 days (a job): queued, running, done or failed, with its message. */
  backfill: Type.Union([
    Type.Object({
      job_id: Type.String(),
      status: Type.String(),
      progress: Type.Integer(),
      message: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export type ConnectionView = Static<typeof ConnectionView>;

export const ConnectionList = Type.Object({ data: Type.Array(ConnectionView) });
export type ConnectionList = Static<typeof ConnectionList>;

export const ConnectionParams = Type.Object({ id: Id() });
export const ConnectionItemParams = Type.Object({ id: Id(), connectionId: Uuid() });

const WebhookSecret = () => Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{8,}$', maxLength: 255 });

export const ConnectionSecretBody = Type.Object(
  { webhook_secret: WebhookSecret() },
  { additionalProperties: false },
);
export type ConnectionSecretBody = Static<typeof ConnectionSecretBody>;

export const ConnectionCreateBody = Type.Object(
  {
    processor: Type.Literal('stripe'),
    /** A restricted key (rk_...) or secret key (sk_...) of the Stripe account. */
    api_key: Type.String({ pattern: '^(rk|sk)_(test|live)_[A-Za-z0-9]{8,}$', maxLength: 255 }),
    /**
     * The signing secret of the webhook endpoint made in Stripe for this connection (whsec_...); may be
     * given afterwards (PUT .../webhook-secret), once the endpoint's URL (which names the connection) is known.
     */
    webhook_secret: Type.Optional(WebhookSecret()),
    /** The merchant's MIDs its disputes belong to (the first takes disputes whose descriptor names none). */
    mid_ids: Type.Array(Id(), { minItems: 1, maxItems: 50, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type ConnectionCreateBody = Static<typeof ConnectionCreateBody>;

export const ConnectionMessage = Type.Object({ message: Text() });

export const ConnectorEventParams = Type.Object({ connection: Uuid() });
/** What the webhook answers the processor (2xx: do not resend). */
export const ConnectorEventResult = Type.Object({
  received: Type.Boolean(),
  outcome: Type.Union(
    ['created', 'updated', 'unchanged', 'duplicate', 'ignored'].map((o) => Type.Literal(o)),
  ),
  case_id: Type.Optional(Type.Integer()),
});
export type ConnectorEventResult = Static<typeof ConnectorEventResult>;

/** Messages of the connector screens and calls. */
export const CONNECTOR_MESSAGES = {
  connected: 'Stripe account connected. Disputes of the last 120 days are being imported.',
  disconnected: 'Stripe account disconnected. Its keys were deleted.',
  secretSaved: 'Webhook signing secret saved. Stripe’s events are now accepted.',
  noSecret: 'This connection has no webhook signing secret yet: add it on the merchant’s settings.',
  notFound: 'Connection not found.',
  midNotOfMerchant: 'Every MID must belong to this merchant.',
  alreadyConnected: 'This Stripe account is already connected.',
  notAllowed: 'Only merchant administrators and the provider’s staff manage processor connections.',
  readOnly: 'Read-only users cannot change processor connections.',
} as const;

/**
 * The case builder's answers a processor's evidence fields are made of (issue 32), as the builder
 * service answers GET /builder/internal/evidence-answers/{caseId} to the docs service's transport job
 * (design §13: the builder owns its tables). Neutral: the catalogue's field names (contracts/builder.ts
 * FIELD_GROUPS) with their saved values, and the product chosen on step 1; the docs side maps them to
 * the processor's fields (services/docs/src/representment/stripe-evidence.ts).
 */
export const BuilderEvidenceAnswers = Type.Object({
  case_id: Type.Integer(),
  /** Whether the case has builder answers at all (a case uploaded through the modal has none). */
  has_answers: Type.Boolean(),
  /**
   * Saved, non-empty answers by catalogue field name (e.g. tracking_no, refund_policy); a lookup select's
   * answer is the name it picks (billing_country_id: 'United States'), not its id.
   */
  answers: Type.Record(Type.String(), Type.String()),
  product: Type.Union([
    Type.Object({
      name: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      /** 1 physical goods, 2 digital goods, 4 service. */
      type_id: Type.Integer(),
    }),
    Type.Null(),
  ]),
  is_subscription: Type.Boolean(),
});
export type BuilderEvidenceAnswers = Static<typeof BuilderEvidenceAnswers>;

export const ProcessorSubmissionAttempt = Type.Object({
  at: Type.String(),
  /** draft: staged at the processor, not submitted; submit: submitted to the issuer. */
  mode: Type.Union([Type.Literal('draft'), Type.Literal('submit')]),
  state: Type.Union([Type.Literal('sent'), Type.Literal('refused'), Type.Literal('failed')]),
  /** False while the transport job will try again. */
  final: Type.Boolean(),
  attempt: Type.Integer(),
  version: Type.Union([Type.Integer(), Type.Null()]),
  /** The evidence fields sent (names only). */
  fields: Type.Array(Type.String()),
  file_id: Type.Union([Type.String(), Type.Null()]),
  /** What the processor answered, in a merchant's words, and its own code (small print). */
  error: Type.Union([
    Type.Object({
      message: Type.String(),
      code: Type.Union([Type.String(), Type.Null()]),
      status: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export type ProcessorSubmissionAttempt = Static<typeof ProcessorSubmissionAttempt>;

/**
 * GET /docs/representment/{caseId}/processor-submission: the case's 'Stripe submission' panel.
 * `connected: false` for a case no processor connection owns (the panel is not drawn).
 */
export const ProcessorSubmissionView = Type.Object({
  connected: Type.Boolean(),
  processor: Type.Union([Type.String(), Type.Null()]),
  connection_id: Type.Union([Type.String(), Type.Null()]),
  dispute_id: Type.Union([Type.String(), Type.Null()]),
  /** The dispute's stage as the processor last told it (open, review, won, lost, closed). */
  stage: Type.Union([Type.String(), Type.Null()]),
  date_due: Type.Union([Type.String(), Type.Null()]),
  /** none: nothing sent yet; draft: evidence staged at the processor; submitted; failed: the last try failed. */
  state: Type.Union([
    Type.Literal('none'),
    Type.Literal('pending'),
    Type.Literal('draft'),
    Type.Literal('submitted'),
    Type.Literal('failed'),
  ]),
  /** A draft that may be submitted now (the case is Working and the dispute still open). */
  can_submit_draft: Type.Boolean(),
  last: Type.Union([ProcessorSubmissionAttempt, Type.Null()]),
  /** Newest first, at most 20. */
  attempts: Type.Array(ProcessorSubmissionAttempt),
});
export type ProcessorSubmissionView = Static<typeof ProcessorSubmissionView>;

export const ProcessorSubmitAnswer = Type.Object({ message: Type.String(), job_id: Type.String() });
export type ProcessorSubmitAnswer = Static<typeof ProcessorSubmitAnswer>;

/** Words of the case's processor submission (panel, upload modal, builder). */
export const PROCESSOR_SUBMISSION_MESSAGES = {
  saveDraft: 'Save as draft at Stripe',
  draftQueued: 'Evidence is being saved as a draft at Stripe (not submitted).',
  draftSavedHistory: (fileId: string) =>
    `Evidence saved as a draft at Stripe (not submitted; file ${fileId}). Submit it from the case's Stripe submission panel or upload again.`,
  submitDraft: 'Submit the draft to Stripe',
  submitQueued: 'The draft is being submitted to Stripe.',
  notConnected: 'This case does not come from a processor connection: there is no draft to save.',
  noDraft: 'There is no draft at Stripe to submit for this case.',
  notWorking: 'The case is not waiting for a submission now.',
} as const;
