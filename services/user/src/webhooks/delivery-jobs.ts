import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import {
  DEADLINE_DIGEST_EVENT,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookKind,
  type WebhookPayload,
} from '@portal/contracts';
import { resolveContextSecret, type Queryable } from '@portal/core';
import { tenantOrigin } from '@portal/exports';
import { defineEventDispatcher, defineJob, enqueue, JobError, type JobDefinition } from '@portal/jobs';
import { chatHostPolicy, checkChatUrl, isChatKind, type ChatHostPolicy } from './chat-destinations';
import { chatMessageBody, type DigestCase } from './chat-messages';
import { publishLiveEvents } from './live-events';
import { postToTarget } from './post';
import { openSecret, signatureHeader } from './signing';
import {
  checkTarget,
  networkPolicy,
  WebhookTargetError,
  type Resolve,
  type WebhookNetworkPolicy,
} from './ssrf';

/**
 * Two job kinds carry events to endpoints:
 * - `events.dispatch` (the outbox every service writes with emitEvent): matches each event with the
 *   active endpoints of its tenant subscribed to its type whose merchant is the event's merchant or
 *   one above it, and adds one delivery row and one delivery job per endpoint, in one step;
 * - `webhooks.deliver`: one signed POST per attempt, retried with exponential backoff: 12 retries
 *   from 15 s doubling (with jitter) span about a day.
 */
const webhookDeliveryJob = defineJob({
  name: 'webhooks.deliver',
  schema: Type.Object({ delivery_id: Type.Integer({ minimum: 1 }) }),
  retryLimit: 12,
  retryDelaySeconds: 15,
  retryBackoff: true,
  expireInSeconds: 60,
  handler: async (ctx) => {
    if (!ctx.env) throw new JobError('The worker has no configuration.', { permanent: true });
    return deliverOnce(ctx.db, ctx.tenant, ctx.data.delivery_id, {
      contextSecret: resolveContextSecret(ctx.env),
      policy: networkPolicy(ctx.env),
      chatHosts: chatHostPolicy(ctx.env),
      portalOrigin: tenantOrigin(ctx.env, ctx.tenant),
      lastAttempt: ctx.attempt >= ctx.maxAttempts,
    });
  },
});

// The hierarchy belongs to the case service; the worker reads what it declares of it (cases_api, migration case/035).
const MATCHING_ENDPOINTS = `
  with recursive up(id, parent_id) as (
    select id, parent_id from cases_api.merchants where tenant_id = $1 and id = $2
    union all
    select m.id, m.parent_id from cases_api.merchants m join up on m.id = up.parent_id where m.tenant_id = $1
  )
  insert into users.webhook_deliveries (tenant, endpoint_id, event_id, event_type, payload)
  select $1, e.id, $3::uuid, $4, $5::jsonb from users.webhook_endpoints e
   where e.tenant = $1 and e.is_active and e.deleted_at is null and $4 = any(e.events)
     and e.merchant_id in (select id from up)
  on conflict (endpoint_id, event_id) do nothing
  returning id`;

export const eventDispatchJob = defineEventDispatcher(async (ctx) => {
  const dispatched = await ctx.once('dispatch', async (tx) => {
    const any = await tx.query(
      `select 1 from users.webhook_endpoints where tenant = $1 and is_active and deleted_at is null limit 1`,
      [ctx.tenant],
    );
    if (!any.rows.length) return { deliveries: 0 };
    let deliveries = 0;
    for (const event of ctx.data.events) {
      const payload: WebhookPayload = {
        id: event.id,
        type: event.type,
        created: event.occurred_at,
        tenant: ctx.tenant,
        merchant_id: event.merchant_id,
        data: event.data,
      };
      const { rows } = await tx.query<{ id: string }>(MATCHING_ENDPOINTS, [
        ctx.tenant,
        event.merchant_id,
        event.id,
        event.type,
        JSON.stringify(payload),
      ]);
      for (const row of rows) await queueDelivery(tx, ctx.tenant, Number(row.id));
      deliveries += rows.length;
    }
    return { deliveries };
  });
  // The events have committed (their outbox job exists): live screens may hear of them now.
  await publishLiveEvents(ctx);
  return dispatched;
});

export const WEBHOOK_JOBS: readonly JobDefinition[] = [eventDispatchJob, webhookDeliveryJob];

/** Adds the delivery job (one unfinished job per delivery: a second redeliver answers the first). */
export function queueDelivery(tx: Queryable, tenant: string, deliveryId: number) {
  return enqueue(
    tx,
    webhookDeliveryJob,
    { delivery_id: deliveryId },
    { tenant, createdBy: null, singletonKey: `delivery-${deliveryId}` },
  );
}

/**
 * The daily deadline digest of a user (reminder-sweep.ts) to the active chat destinations that user
 * created and subscribed to it: a delivery row and job each, in the digest's transaction.
 */
export async function queueChatDigest(
  tx: Queryable,
  user: { tenant: string; id: number; merchant_id: number },
  cases: readonly DigestCase[],
  now: Date,
): Promise<number> {
  const payload: WebhookPayload = {
    id: randomUUID(),
    type: DEADLINE_DIGEST_EVENT,
    created: now.toISOString(),
    tenant: user.tenant,
    merchant_id: user.merchant_id,
    data: { user_id: user.id, cases },
  };
  const { rows } = await tx.query<{ id: string }>(
    `insert into users.webhook_deliveries (tenant, endpoint_id, event_id, event_type, payload)
     select $1, e.id, $3::uuid, $4, $5::jsonb from users.webhook_endpoints e
      where e.tenant = $1 and e.created_by = $2 and e.kind <> 'signed' and e.is_active
        and e.deleted_at is null and $4 = any(e.events)
     returning id`,
    [user.tenant, user.id, payload.id, DEADLINE_DIGEST_EVENT, JSON.stringify(payload)],
  );
  for (const row of rows) await queueDelivery(tx, user.tenant, Number(row.id));
  return rows.length;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  state: string;
  payload: unknown;
  url: string;
  kind: WebhookKind;
  secret_enc: string;
  usable: boolean;
}

export interface DeliverySettings {
  contextSecret: string;
  policy: WebhookNetworkPolicy;
  /** The hosts chat destinations may use (CHAT_WEBHOOK_HOSTS or, by default, the tools' own). */
  chatHosts?: ChatHostPolicy;
  /** The tenant's portal, which chat messages link to (none: the tenant has no domain). */
  portalOrigin?: string | null;
  /** No retry follows a failure of this attempt. */
  lastAttempt: boolean;
  now?: () => Date;
  /** The resolver and attempt limit (tests stand in a rebinding DNS answer or a short timeout). */
  resolve?: Resolve;
  timeoutMs?: number;
}

async function record(
  db: Queryable,
  id: number,
  state: 'succeeded' | 'retrying' | 'failed',
  code: number | null,
  error: string | null,
) {
  await db.query(
    `update users.webhook_deliveries set state = $2, attempts = attempts + 1, response_code = $3, last_error = $4,
       delivered_at = case when $2 = 'succeeded' then now() else delivered_at end, updated_at = now()
     where id = $1`,
    [id, state, code, error?.slice(0, 500) ?? null],
  );
}

/** One attempt: the checked address, a fresh signature, the outcome recorded; throws to retry. */
export async function deliverOnce(
  db: Queryable,
  tenant: string,
  deliveryId: number,
  settings: DeliverySettings,
) {
  const { rows } = await db.query<DeliveryRow>(
    `select d.id, d.endpoint_id, d.event_id, d.state, d.payload, e.url, e.kind, e.secret_enc,
            (e.is_active and e.deleted_at is null) as usable
       from users.webhook_deliveries d join users.webhook_endpoints e on e.id = d.endpoint_id
      where d.id = $1 and d.tenant = $2`,
    [deliveryId, tenant],
  );
  const row = rows[0];
  if (!row) throw new JobError('The delivery no longer exists.', { permanent: true });
  if (row.state === 'succeeded') return { status: 'already delivered' };
  if (!row.usable) {
    await record(db, deliveryId, 'failed', null, 'The endpoint is disabled or deleted.');
    throw new JobError('The endpoint is disabled or deleted.', { permanent: true });
  }
  let target;
  try {
    // A chat destination must still be its tool's host (CHAT_WEBHOOK_HOSTS may have changed since).
    if (isChatKind(row.kind)) checkChatUrl(settings.chatHosts ?? { override: null }, row.kind, row.url);
    target = await checkTarget(settings.policy, row.url, settings.resolve);
  } catch (error) {
    if (!(error instanceof WebhookTargetError)) throw error;
    await record(db, deliveryId, 'failed', null, error.message);
    throw new JobError(error.message, { permanent: true });
  }
  const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as WebhookPayload;
  let body: string;
  let headers: Record<string, string>;
  if (isChatKind(row.kind)) {
    if (!settings.portalOrigin) {
      const problem = 'The tenant has no domain for the links of chat messages.';
      await record(db, deliveryId, 'failed', null, problem);
      throw new JobError(problem, { permanent: true });
    }
    // Slack and Teams check nothing of ours: the URL itself is the secret, no signature is sent.
    body = chatMessageBody(row.kind, payload, settings.portalOrigin);
    headers = { 'user-agent': 'ChargebackPortal-Webhooks/1' };
  } else {
    body = JSON.stringify(payload);
    const t = Math.floor((settings.now?.() ?? new Date()).getTime() / 1000);
    const secret = openSecret(settings.contextSecret, row.secret_enc);
    headers = {
      [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, t),
      'portal-event-id': row.event_id,
      'portal-delivery-id': String(row.id),
      'user-agent': 'ChargebackPortal-Webhooks/1',
    };
  }
  const result = await postToTarget(target, headers, body, settings.timeoutMs);
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const problem = ok ? null : (result.error ?? `The endpoint answered ${result.status}.`);
  await record(
    db,
    deliveryId,
    ok ? 'succeeded' : settings.lastAttempt ? 'failed' : 'retrying',
    result.status,
    problem,
  );
  if (!ok) throw new JobError(problem!);
  return { status: result.status };
}
