import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';

/**
 * Domain events and signed webhooks (design §11, issue 19): services emit
 * events in the transaction of the change; the user service delivers them to
 * the endpoints merchant and partner admins register (`/users/webhooks`),
 * signed with HMAC-SHA256 over `${t}.${body}` in the `Portal-Signature`
 * header (`t=<unix seconds>,v1=<hex>`), as Stripe does.
 */
export const WEBHOOK_EVENT_TYPES = [
  'CASE_CREATED',
  'CASE_STATUS_CHANGED',
  'CASE_VERDICT_CHANGED',
  'DOC_VALIDATION_ERROR',
  'ALERT_CREATED',
  'ALERT_STATUS_CHANGED',
  'ERT_CREATED',
  'ERT_RESOLVED',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WebhookEventType = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));

export const WEBHOOK_SIGNATURE_HEADER = 'portal-signature';

/**
 * Where an endpoint's deliveries go (issue 35.4): a signed endpoint of the merchant's own, or a Slack
 * or Microsoft Teams incoming webhook (https, those tools' hosts only), which gets a short message in
 * the tool's own format (Slack blocks, a Teams Adaptive Card) instead of the signed body.
 */
export const WEBHOOK_KINDS = ['signed', 'slack', 'teams'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export const WebhookKind = Type.Union(WEBHOOK_KINDS.map((k) => Type.Literal(k)));

/** The daily deadline digest of the destination's owner (not a domain event): chat destinations only. */
export const DEADLINE_DIGEST_EVENT = 'DEADLINE_DIGEST';
/** What a chat destination may subscribe to: new disputes and the daily deadline digest. */
export const CHAT_EVENT_TYPES = ['CASE_CREATED', DEADLINE_DIGEST_EVENT] as const;
const SubscribedType = Type.Union([WebhookEventType, Type.Literal(DEADLINE_DIGEST_EVENT)]);
export type SubscribedEventType = WebhookEventType | typeof DEADLINE_DIGEST_EVENT;

/** The type of the sample event an admin sends to check an endpoint (not a domain event: never emitted by a change). */
export const WEBHOOK_TEST_EVENT = 'WEBHOOK_TEST';
const DeliveredType = Type.Union([SubscribedType, Type.Literal(WEBHOOK_TEST_EVENT)]);

/** One event as emitted (the outbox job's data) and as delivered (`data` is what changed). */
export const DomainEvent = Type.Object({
  // A pattern, not format 'uuid': the job engine checks data with TypeBox, which knows no formats.
  id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }),
  type: WebhookEventType,
  occurred_at: Type.String({ maxLength: 40 }),
  /** The merchant the change belongs to: endpoints of this merchant or one above it receive it. */
  merchant_id: Id(),
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type DomainEvent = Static<typeof DomainEvent>;

/** What an endpoint receives (the signed body). */
export interface WebhookPayload {
  id: string;
  type: SubscribedEventType | typeof WEBHOOK_TEST_EVENT;
  created: string;
  tenant: string;
  merchant_id: number;
  data: Record<string, unknown>;
}

export const WebhookEndpoint = Type.Object({
  id: Type.Integer(),
  kind: WebhookKind,
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(SubscribedType),
  is_active: Type.Boolean(),
  merchant_id: Type.Integer(),
  /** The last four characters of the signing secret, to tell secrets apart. */
  secret_hint: Type.String(),
  created_at: Type.String(),
  created_by: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
export const WebhookEndpointList = ListResponse(WebhookEndpoint);
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

/** The only answer that carries the signing secret: shown once, at registration. */
export const WebhookCreated = Type.Composite([WebhookEndpoint, Type.Object({ secret: Type.String() })]);
export type WebhookCreated = Static<typeof WebhookCreated>;

const Events = Type.Array(SubscribedType, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length + 1,
  uniqueItems: true,
});
const Url = Text({ minLength: 8, maxLength: 2000 });
const Description = Text({ maxLength: 200 });

export const WebhookCreateBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    /** 'signed' when left out. */
    kind: Type.Optional(WebhookKind),
  },
  { additionalProperties: false },
);
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookPatchBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookPatchBody = Static<typeof WebhookPatchBody>;

export const WEBHOOK_DELIVERY_STATES = ['queued', 'retrying', 'succeeded', 'failed'] as const;

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: DeliveredType,
  state: Type.Union(WEBHOOK_DELIVERY_STATES.map((s) => Type.Literal(s))),
  response_code: Type.Union([Type.Integer(), Type.Null()]),
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;
export const WebhookDeliveryList = ListResponse(WebhookDelivery);
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

export const WebhookListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, default: 25 })),
});
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const WEBHOOK_MESSAGES = {
  created: 'The webhook endpoint was registered. Copy the signing secret now: it will not be shown again.',
  updated: 'The webhook endpoint was updated.',
  deleted: 'The webhook endpoint was deleted.',
  redelivered: 'The delivery was queued again.',
  testQueued: 'A test event was queued for delivery.',
  notFound: 'Webhook endpoint not found.',
  deliveryNotFound: 'Delivery not found.',
  notAllowed: 'Only merchant and partner administrators manage webhooks.',
  badUrl: 'The endpoint URL is not a valid absolute URL.',
  httpsOnly: 'The endpoint URL must use https.',
  credentials: 'The endpoint URL must not contain a user name or password.',
  unresolvable: 'The endpoint host name could not be resolved.',
  linkLocal: 'The endpoint resolves to a link-local address, which is never allowed.',
  privateAddress: 'The endpoint resolves to a private or loopback address, which is not allowed.',
  tooMany: 'A merchant may register at most 20 webhook endpoints.',
  chatCreated: 'The chat destination was added.',
  chatTestQueued: 'A test message was queued for delivery.',
  slackHost: 'A Slack destination must be an incoming-webhook URL of hooks.slack.com.',
  teamsHost:
    'A Microsoft Teams destination must be an incoming-webhook or workflow URL of webhook.office.com, logic.azure.com or powerplatform.com.',
  chatEvents: 'Chat destinations receive new disputes (CASE_CREATED) and the daily deadline digest only.',
  digestSignedOnly: 'The daily deadline digest goes to Slack and Microsoft Teams destinations only.',
} as const;
export const WEBHOOK_MAX_ENDPOINTS = 20;
