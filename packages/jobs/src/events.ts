import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { DomainEvent, type WebhookEventType } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { defineJob, JobError, type JobContext, type JobDefinition } from './define';
import { enqueue } from './enqueue';

/**
 * Domain events (design §11) through an outbox: `emitEvent(tx, ...)` adds a
 * job of the `events.dispatch` queue inside the caller's transaction, so the
 * event exists exactly when the change commits. The user service's webhook
 * dispatcher (`services/user/src/webhooks/`) runs that queue: it matches the
 * endpoints and enqueues one signed delivery job per endpoint.
 */
export const EVENT_DISPATCH_QUEUE = 'events.dispatch';
/** Events of one write travel in one job; a bulk write of more is split. */
export const EVENTS_PER_JOB = 500;

export const EventBatch = Type.Object({
  events: Type.Array(DomainEvent, { minItems: 1, maxItems: EVENTS_PER_JOB }),
});
export type EventBatch = Static<typeof EventBatch>;

const DISPATCH_OPTIONS = {
  retryLimit: 10,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 300,
} as const;

/** The dispatcher's job definition: the one consumer supplies the handler, emitters share the rest. */
export function defineEventDispatcher<R>(
  handler: (ctx: JobContext<EventBatch>) => Promise<R>,
): JobDefinition<typeof EventBatch, R> {
  return defineJob({ name: EVENT_DISPATCH_QUEUE, schema: EventBatch, ...DISPATCH_OPTIONS, handler });
}

// enqueue reads only the name, schema and retry options; the worker runs the user service's definition.
const outbox = defineEventDispatcher(() =>
  Promise.reject(new JobError('Events are dispatched by the user service worker.', { permanent: true })),
);

export interface EventInput {
  type: WebhookEventType;
  /** The merchant the changed record belongs to (scopes which endpoints receive it). */
  merchant_id: number;
  data: Record<string, unknown>;
}

/** Emits events in the caller's transaction (nothing when the list is empty). */
export async function emitEvents(
  tx: Queryable,
  tenant: string,
  events: readonly EventInput[],
  createdBy: number | null = null,
): Promise<void> {
  const occurred_at = new Date().toISOString();
  for (let i = 0; i < events.length; i += EVENTS_PER_JOB) {
    const batch = events.slice(i, i + EVENTS_PER_JOB).map((e) => ({
      id: randomUUID(),
      occurred_at,
      type: e.type,
      merchant_id: Number(e.merchant_id),
      data: e.data,
    }));
    await enqueue(tx, outbox, { events: batch }, { tenant, createdBy });
  }
}

/** One event in the caller's transaction. */
export function emitEvent(
  tx: Queryable,
  tenant: string,
  event: EventInput,
  createdBy: number | null = null,
): Promise<void> {
  return emitEvents(tx, tenant, [event], createdBy);
}
