import { ConnectorError, StripeSdk } from '@portal/connectors';
import { JobError, readableError } from '@portal/jobs';

/**
 * What Stripe answered a submission, in words a merchant understands, with
 * Stripe's own code and HTTP status kept for the small print of the case's
 * 'Stripe submission' panel (issue 32). The SDK's error classes decide the
 * kind (permission, authentication, rate limit, Stripe's own failure);
 * within a refused request (400) Stripe's code, and where it names none its
 * message, tell a closed dispute, a passed deadline and a file too large apart.
 */
export interface ExplainedStripeError {
  message: string;
  code: string | null;
  status: number | null;
  /** Trying again later may help (the transport job is retried with backoff). */
  retryable: boolean;
}

export const STRIPE_WORDS = {
  pastDue: 'The deadline to respond to this dispute has passed: Stripe no longer accepts evidence for it.',
  closed:
    'Stripe no longer takes evidence for this dispute: it is already closed or under review by the card issuer.',
  tooLarge:
    'The evidence file is too large for Stripe (dispute evidence may be at most 4.5 MB and 50 pages in all): remove pages or shrink images and upload again.',
  permission:
    'The connected Stripe key lacks a permission this needs (Disputes: write, Files: write). Ask the account owner to add them to the restricted key.',
  authentication:
    'Stripe did not accept the connected key: it may have been revoked or rolled. Connect the Stripe account again.',
  rateLimited: 'Stripe asked us to slow down; the submission was retried automatically.',
  unavailable: 'Stripe was unavailable; the submission was retried automatically.',
  unknownDispute: 'Stripe does not know this dispute on the connected account.',
  refused: (detail: string) => `Stripe refused the evidence${detail ? `: ${detail}` : '.'}`,
  badField: (param: string) =>
    `Stripe refused the evidence field ${param.replace(/^evidence\[|\]$/g, '')}: correct it in the case builder and submit again.`,
} as const;

/** Stripe's codes (and, where it gives none, its words) for a dispute's evidence that can no longer be changed. */
const PAST_DUE =
  /evidence_submission_window_closed|past_due|past (its|the) (evidence )?due|deadline|due date has passed/i;
const CLOSED =
  /already (been )?(closed|submitted)|is closed|under review|status_transition_invalid|not in a state/i;
const TOO_LARGE = /too large|exceeds the maximum|file size|page_limit_exceeded|too many pages/i;

function stripeErrorOf(error: unknown): InstanceType<typeof StripeSdk.errors.StripeError> | null {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof StripeSdk.errors.StripeError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function explainStripeSubmissionError(error: unknown): ExplainedStripeError {
  const s = stripeErrorOf(error);
  if (!s) {
    // Refused before any call (due date, stage) or a failure of our own: the job's own words.
    const permanent =
      error instanceof JobError ? error.permanent : !(error instanceof ConnectorError && error.retryable);
    const message = error instanceof ConnectorError ? error.message : readableError(error);
    return { message, code: null, status: null, retryable: !permanent };
  }
  const code = s.code ?? null;
  const status = s.statusCode ?? null;
  const said = `${code ?? ''} ${s.message ?? ''}`;
  const words = (message: string, retryable = false) => ({
    message,
    code: code ?? s.rawType ?? null,
    status,
    retryable,
  });
  if (s instanceof StripeSdk.errors.StripePermissionError || status === 403)
    return words(STRIPE_WORDS.permission);
  if (s instanceof StripeSdk.errors.StripeAuthenticationError || status === 401)
    return words(STRIPE_WORDS.authentication);
  if (s instanceof StripeSdk.errors.StripeRateLimitError || status === 429)
    return words(STRIPE_WORDS.rateLimited, true);
  if (
    s instanceof StripeSdk.errors.StripeAPIError ||
    s instanceof StripeSdk.errors.StripeConnectionError ||
    (status !== null && status >= 500)
  )
    return words(STRIPE_WORDS.unavailable, true);
  if (PAST_DUE.test(said)) return words(STRIPE_WORDS.pastDue);
  if (TOO_LARGE.test(said) || status === 413) return words(STRIPE_WORDS.tooLarge);
  if (CLOSED.test(said)) return words(STRIPE_WORDS.closed);
  if (status === 404 || code === 'resource_missing') return words(STRIPE_WORDS.unknownDispute);
  const param = (s as { param?: string }).param;
  if (param?.startsWith('evidence[')) return words(STRIPE_WORDS.badField(param));
  return words(STRIPE_WORDS.refused(s.message ?? ''));
}
