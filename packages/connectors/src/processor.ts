/**
 * What every processor connector does (design §14), whatever the processor:
 * disputes in (a verified webhook event, a backfill page by page), evidence
 * out, outcomes back. The case service and the docs service speak only this
 * interface; Stripe is the first adapter (stripe/), Adyen or Braintree would
 * be another adapter of the same shape, not another feature.
 */

/** The card brands the portal keeps cases for (cases.card_types aliases). */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

/**
 * Where a dispute stands, in the portal's words. open: a response is due;
 * review: evidence was sent, the issuer decides; won / lost: final;
 * closed: an inquiry closed without becoming a chargeback.
 */
export type DisputeStage = 'open' | 'review' | 'won' | 'lost' | 'closed';

/** A processor's dispute reduced to what a case needs (amounts in minor units). */
export interface ProcessorDispute {
  /** The processor's id of the dispute: the case's source reference. */
  disputeId: string;
  chargeId: string | null;
  amountMinor: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** The card brand, or null for a brand the portal keeps no cases of (refused). */
  brand: CardBrand | null;
  rawBrand: string;
  last4: string | null;
  /** The network's code (e.g. '10.4', '4837') when the processor gives it. */
  networkReasonCode: string | null;
  /** The processor's own reason (e.g. Stripe's 'fraudulent'). */
  reason: string;
  /** The network's code the processor's reason stands for on this brand (when no network code is given). */
  fallbackReasonCode: string | null;
  /** An inquiry (retrieval request) rather than a chargeback. */
  inquiry: boolean;
  stage: DisputeStage;
  rawStatus: string;
  createdAt: Date;
  /** When evidence is due; null when the issuer allows no response. */
  dueBy: Date | null;
  transactionAt: Date | null;
  isChargeRefundable: boolean;
  /** The statement descriptor of the charge, to find the MID of a connection with several. */
  descriptor: string | null;
  /** The merchant's order reference (the payment intent or the charge's metadata order_id). */
  orderRef: string | null;
}

/** A verified event: its id (idempotency), its type, when it happened, and the dispute it carries. */
export interface ProcessorEvent {
  eventId: string;
  type: string;
  createdAt: Date;
  /** Null for an event type the connector does not act on. */
  dispute: ProcessorDispute | null;
}

/** Evidence as the user entered it (builder answers, comments), plus the compiled document. */
export interface EvidenceSubmission {
  disputeId: string;
  document: { filename: string; bytes: Buffer };
  fields: Partial<Record<EvidenceField, string>>;
  /** false: save as a draft on the processor without submitting. */
  submit: boolean;
  /** Stable across retries of the same submission. */
  idempotencyKey: string;
}

/**
 * The text evidence fields the portal maps to (the processor names its own). Stripe takes
 * customer_communication as a file id, not text: the compiled PDF carries the communication.
 */
export type EvidenceField =
  | 'product_description'
  | 'customer_name'
  | 'customer_email_address'
  | 'customer_purchase_ip'
  | 'billing_address'
  | 'cancellation_policy_disclosure'
  | 'customer_communication'
  | 'shipping_tracking_number'
  | 'shipping_carrier'
  | 'shipping_date'
  | 'shipping_address'
  | 'service_date'
  | 'refund_policy_disclosure'
  | 'refund_refusal_explanation'
  | 'cancellation_rebuttal'
  | 'duplicate_charge_explanation'
  | 'access_activity_log'
  | 'uncategorized_text';

/** A processor's answer a merchant can read, and whether trying again may help. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ConnectorError';
  }
}

/** One connection's client: made from its decrypted credentials, never kept beyond a call or a job. */
export interface ProcessorClient {
  /** One read call that proves the key works; answers the processor account's id and name. */
  validate(): Promise<{ accountId: string; accountName: string | null }>;
  /** One dispute with its charge (a webhook carries the charge's id only: the card's last four are on it). */
  retrieveDispute(disputeId: string): Promise<ProcessorDispute>;
  /** Disputes created since `since`, page by page (the client follows the processor's pagination). */
  listDisputes(since: Date, startingAfter?: string): AsyncIterable<ProcessorDispute>;
  submitEvidence(submission: EvidenceSubmission): Promise<{ submissionId: string; fileId: string }>;
}

export interface ProcessorConnector {
  /** The processor's alias (cases.processors.alias; the connection's `processor`). */
  readonly processor: string;
  client(credentials: { apiKey: string }): ProcessorClient;
  /** Verifies a webhook on its raw body; throws ConnectorError (not retryable) when it does not verify. */
  verifyEvent(rawBody: string, signatureHeader: string | undefined, secret: string): ProcessorEvent;
}
