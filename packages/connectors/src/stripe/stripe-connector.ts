import Stripe from 'stripe';
import {
  ConnectorError,
  type EvidenceSubmission,
  type ProcessorClient,
  type ProcessorConnector,
  type ProcessorDispute,
  type ProcessorEvent,
} from '../processor';
import { DISPUTE_EVENTS, toProcessorDispute } from './dispute-mapping';

/** The API version every call pins (the SDK's own; the stand-in checks the header). */
export const STRIPE_API_VERSION = Stripe.API_VERSION;
/** Seconds a signed event stays acceptable (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeConnectorOptions {
  /**
   * Where the API is, for tests and demos pointing at a stand-in (STRIPE_API_BASE, an operator's env
   * setting, never a request's); unset: api.stripe.com.
   */
  apiBase?: string;
  timeoutMs?: number;
  /** The SDK's own retries (5xx, 409 and lost connections, with backoff and the same idempotency key). */
  maxNetworkRetries?: number;
  /**
   * The SDK does not retry a 429 by itself: the client waits and asks again, this long first, doubling,
   * up to `rateLimitRetries` times, before the caller (a job) gets a retryable error.
   */
  rateLimitDelayMs?: number;
  rateLimitRetries?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `call`, waiting and trying again on Stripe's rate limit (429) with exponential backoff and jitter. */
async function withRateLimitBackoff<T>(o: StripeConnectorOptions, call: () => Promise<T>): Promise<T> {
  const retries = o.rateLimitRetries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeRateLimitError) || attempt >= retries) throw error;
      const base = (o.rateLimitDelayMs ?? 1000) * 2 ** attempt;
      await sleep(base / 2 + Math.random() * (base / 2));
    }
  }
}

function clientOptions(o: StripeConnectorOptions): Stripe.StripeConfig {
  const config: Stripe.StripeConfig = {
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    timeout: o.timeoutMs ?? 20_000,
    maxNetworkRetries: o.maxNetworkRetries ?? 2,
    appInfo: { name: 'chargeback-portal' },
  };
  if (o.apiBase) {
    const url = new URL(o.apiBase);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'https:' ? '443' : '80');
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return config;
}

/** Stripe's errors in words a merchant understands; `retryable` says whether trying later may help. */
export function explainStripeError(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  if (error instanceof Stripe.errors.StripeAuthenticationError)
    return new ConnectorError(
      'Stripe did not accept the API key: it may have been revoked or mistyped.',
      false,
      {
        cause: error,
      },
    );
  if (error instanceof Stripe.errors.StripePermissionError)
    return new ConnectorError(
      'The restricted key lacks a permission this needs (Disputes: write, Files: write, Charges: read).',
      false,
      { cause: error },
    );
  if (error instanceof Stripe.errors.StripeRateLimitError)
    return new ConnectorError('Stripe asked us to slow down; we will try again shortly.', true, {
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeConnectionError)
    return new ConnectorError('Stripe could not be reached; we will try again shortly.', true, {
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeAPIError)
    return new ConnectorError('Stripe had a problem answering; we will try again shortly.', true, {
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return new ConnectorError('Stripe saw this submission before with different content.', false, {
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    const detail = error.message ? ` Stripe said: ${error.message}` : '';
    if (error.statusCode === 404)
      return new ConnectorError(
        `Stripe does not know this dispute on the connected account.${detail}`,
        false,
        {
          cause: error,
        },
      );
    return new ConnectorError(`Stripe refused the request.${detail}`, false, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError)
    return new ConnectorError('Stripe could not complete the request; we will try again shortly.', true, {
      cause: error,
    });
  return new ConnectorError('The call to Stripe failed; we will try again shortly.', true, { cause: error });
}

class StripeClient implements ProcessorClient {
  constructor(
    private readonly stripe: Stripe,
    private readonly options: StripeConnectorOptions,
  ) {}

  async validate() {
    try {
      // One read call: the account the key belongs to (a restricted key with no access to it still
      // proves itself by listing one dispute, which the connector needs anyway).
      await withRateLimitBackoff(this.options, () => this.stripe.disputes.list({ limit: 1 }));
      const account = await withRateLimitBackoff(this.options, () =>
        this.stripe.accounts.retrieveCurrent(),
      ).catch((error: unknown) => {
        if (error instanceof Stripe.errors.StripePermissionError) return null;
        throw error;
      });
      return {
        accountId: account?.id ?? 'restricted',
        accountName: account?.settings?.dashboard?.display_name ?? account?.business_profile?.name ?? null,
      };
    } catch (error) {
      throw explainStripeError(error);
    }
  }

  async retrieveDispute(disputeId: string) {
    try {
      return toProcessorDispute(
        await withRateLimitBackoff(this.options, () =>
          this.stripe.disputes.retrieve(disputeId, { expand: ['charge'] }),
        ),
      );
    } catch (error) {
      throw explainStripeError(error);
    }
  }

  /**
   * The SDK's auto-pagination; on a 429 it waits (backoff) and goes on after the last dispute it gave,
   * so a long backfill slows down instead of failing or starting over.
   */
  async *listDisputes(since: Date, startingAfter?: string): AsyncIterable<ProcessorDispute> {
    let after = startingAfter;
    const retries = this.options.rateLimitRetries ?? 4;
    for (let limited = 0; ;) {
      const params: Stripe.DisputeListParams = {
        limit: 100,
        created: { gte: Math.floor(since.getTime() / 1000) },
        expand: ['data.charge'],
        ...(after ? { starting_after: after } : {}),
      };
      try {
        for await (const dispute of this.stripe.disputes.list(params)) {
          after = dispute.id;
          limited = 0;
          yield toProcessorDispute(dispute);
        }
        return;
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeRateLimitError) || limited >= retries)
          throw explainStripeError(error);
        const base = (this.options.rateLimitDelayMs ?? 1000) * 2 ** limited++;
        await sleep(base / 2 + Math.random() * (base / 2));
      }
    }
  }

  async submitEvidence(s: EvidenceSubmission) {
    try {
      const file = await withRateLimitBackoff(this.options, () =>
        this.stripe.files.create(
          {
            purpose: 'dispute_evidence',
            file: { data: s.document.bytes, name: s.document.filename, type: 'application/pdf' },
          },
          { idempotencyKey: `${s.idempotencyKey}:file` },
        ),
      );
      const dispute = await withRateLimitBackoff(this.options, () =>
        this.stripe.disputes.update(
          s.disputeId,
          { evidence: { ...s.fields, uncategorized_file: file.id }, submit: s.submit },
          { idempotencyKey: `${s.idempotencyKey}:evidence` },
        ),
      );
      return { submissionId: dispute.id, fileId: file.id };
    } catch (error) {
      throw explainStripeError(error);
    }
  }
}

export function stripeConnector(options: StripeConnectorOptions = {}): ProcessorConnector {
  // The webhook verifier needs no key: one SDK instance with a placeholder serves every connection.
  const verifier = new Stripe('sk_unused', clientOptions(options));
  return {
    processor: 'stripe',
    client: ({ apiKey }) => new StripeClient(new Stripe(apiKey, clientOptions(options)), options),
    verifyEvent(rawBody: string, header: string | undefined, secret: string): ProcessorEvent {
      if (!header) throw new ConnectorError('The event is not signed (no Stripe-Signature header).', false);
      let event: Stripe.Event;
      try {
        event = verifier.webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (cause) {
        const stale = cause instanceof Error && /tolerance/i.test(cause.message);
        throw new ConnectorError(
          stale
            ? 'The event’s signature is too old (more than 5 minutes).'
            : 'The event’s signature does not match the connection’s signing secret.',
          false,
          { cause },
        );
      }
      const dispute =
        DISPUTE_EVENTS.has(event.type) && (event.data.object as { object?: string }).object === 'dispute'
          ? toProcessorDispute(event.data.object as Stripe.Dispute)
          : null;
      return { eventId: event.id, type: event.type, createdAt: new Date(event.created * 1000), dispute };
    },
  };
}
