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
