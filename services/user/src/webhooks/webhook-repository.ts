import type {
  SubscribedEventType,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookKind,
  WebhookPayload,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Endpoint and delivery rows of one merchant (the owner's merchant: its admins share them). */
export interface EndpointKey {
  tenant: string;
  merchantId: number;
}

interface EndpointRow {
  id: string;
  kind: WebhookKind;
  url: string;
  description: string;
  events: SubscribedEventType[];
  is_active: boolean;
  merchant_id: string;
  secret_hint: string;
  created_at: Date | string;
  created_by: string | null;
}

const ENDPOINT_COLUMNS = `e.id, e.kind, e.url, e.description, e.events, e.is_active, e.merchant_id, e.secret_hint, e.created_at,
  (select u.username from users.users u where u.id = e.created_by) as created_by`;

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: Number(r.id),
    kind: r.kind,
    url: r.url,
    description: r.description,
    events: r.events,
    is_active: r.is_active,
    merchant_id: Number(r.merchant_id),
    secret_hint: r.secret_hint,
    created_at: new Date(r.created_at).toISOString(),
    created_by: r.created_by,
  };
}

export async function countEndpoints(db: Queryable, key: EndpointKey): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from users.webhook_endpoints where tenant = $1 and merchant_id = $2 and deleted_at is null`,
    [key.tenant, key.merchantId],
  );
  return rows[0]?.n ?? 0;
}

export async function listEndpoints(db: Queryable, key: EndpointKey, limit: number, start: number) {
  const { rows } = await db.query<EndpointRow>(
    `select ${ENDPOINT_COLUMNS} from users.webhook_endpoints e
      where e.tenant = $1 and e.merchant_id = $2 and e.deleted_at is null
      order by e.id desc limit $3 offset $4`,
    [key.tenant, key.merchantId, limit, start],
  );
  return rows.map(toEndpoint);
}

export async function findEndpoint(db: Queryable, key: EndpointKey, id: number, lock = false) {
  const { rows } = await db.query<EndpointRow>(
    `select ${ENDPOINT_COLUMNS} from users.webhook_endpoints e
      where e.tenant = $1 and e.merchant_id = $2 and e.id = $3 and e.deleted_at is null${lock ? ' for update' : ''}`,
    [key.tenant, key.merchantId, id],
  );
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export async function insertEndpoint(
  db: Queryable,
  key: EndpointKey,
  values: {
    kind: WebhookKind;
    url: string;
    description: string;
    events: readonly string[];
    secretEnc: string;
    secretHint: string;
  },
  createdBy: number,
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `insert into users.webhook_endpoints (tenant, merchant_id, url, description, events, secret_enc, secret_hint, created_by, kind)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      key.tenant,
      key.merchantId,
      values.url,
      values.description,
      values.events,
      values.secretEnc,
      values.secretHint,
      createdBy,
      values.kind,
    ],
  );
  return Number(rows[0]!.id);
}

export async function updateEndpoint(
  db: Queryable,
  id: number,
  patch: { url?: string; description?: string; events?: readonly string[]; is_active?: boolean },
) {
  await db.query(
    `update users.webhook_endpoints set url = coalesce($2, url), description = coalesce($3, description),
       events = coalesce($4, events), is_active = coalesce($5, is_active), updated_at = now() where id = $1`,
    [id, patch.url ?? null, patch.description ?? null, patch.events ?? null, patch.is_active ?? null],
  );
}

/** Deleted endpoints keep their rows (deliveries stay readable in the audit trail) but never receive again. */
export async function deleteEndpoint(db: Queryable, id: number) {
  await db.query(
    `update users.webhook_endpoints set deleted_at = now(), is_active = false, updated_at = now() where id = $1`,
    [id],
  );
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: WebhookDelivery['event_type'];
  state: WebhookDelivery['state'];
  response_code: number | null;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  delivered_at: Date | string | null;
}

export async function listDeliveries(db: Queryable, endpointId: number, limit: number, start: number) {
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from users.webhook_deliveries where endpoint_id = $1`,
    [endpointId],
  );
  const { rows } = await db.query<DeliveryRow>(
    `select id, event_id, event_type, state, response_code, attempts, last_error, created_at, delivered_at
       from users.webhook_deliveries where endpoint_id = $1 order by created_at desc, id desc limit $2 offset $3`,
    [endpointId, limit, start],
  );
  const data: WebhookDelivery[] = rows.map((r) => ({
    ...r,
    id: Number(r.id),
    created_at: new Date(r.created_at).toISOString(),
    delivered_at: r.delivered_at === null ? null : new Date(r.delivered_at).toISOString(),
  }));
  return { data, total: count.rows[0]?.n ?? 0 };
}

/** A delivery of a payload built here (the test event), not matched from a domain event. */
export async function insertDelivery(
  db: Queryable,
  tenant: string,
  endpointId: number,
  payload: WebhookPayload,
) {
  const { rows } = await db.query<{ id: string }>(
    `insert into users.webhook_deliveries (tenant, endpoint_id, event_id, event_type, payload)
     values ($1, $2, $3::uuid, $4, $5::jsonb) returning id`,
    [tenant, endpointId, payload.id, payload.type, JSON.stringify(payload)],
  );
  return Number(rows[0]!.id);
}

/** Puts a delivery back to queued for a redelivery; null when it is not this endpoint's. */
export async function requeueDelivery(db: Queryable, endpointId: number, deliveryId: number) {
  const { rows } = await db.query<{ id: string }>(
    `update users.webhook_deliveries set state = 'queued', updated_at = now()
      where id = $1 and endpoint_id = $2 returning id`,
    [deliveryId, endpointId],
  );
  return rows.length > 0;
}
