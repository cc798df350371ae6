import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '@portal/core';
import { defineJob, type JobContext, type JobDefinition, type JobOptions } from './define';
import { enqueue, type Enqueued } from './enqueue';

const slotSchema = () => Type.Object({ slot: Type.Integer({ minimum: 0 }) });
export type SlotSchema = ReturnType<typeof slotSchema>;
/** A self-scheduled job's input: its slot, the number of intervals since the epoch. */
export type SlotData = Static<SlotSchema>;

export interface SelfScheduledJob<R = unknown> {
  /** The job kind, for the runner's JOBS (worker and migrate step) like any defineJob. */
  job: JobDefinition<SlotSchema, R>;
  intervalSeconds: number;
  /** The slot that contains the time `ms` (epoch milliseconds). */
  slotOf(ms: number): number;
  /** Starts the chain: enqueues the run of the slot after `now` (idempotent; the migrate step calls it). */
  schedule(db: Queryable, now?: number): Promise<Enqueued>;
}

/**
 * A job that runs every `intervalSeconds` and schedules its own next run, with no scheduler process.
 * Time is cut into slots (epoch / interval); the run of slot N starts at N × interval and has `slot-N`
 * as its singleton key, so any number of starters (the migrate step on every start, a late run, two
 * workers) converge on one queued run per slot. After `run`, the handler enqueues the slot after the
 * later of its own slot and the current one: a worker that was down does not replay the missed slots.
 * That enqueue is a ctx.once step, so a retried attempt does not schedule twice.
 */
export function selfScheduledJob<R>(
  definition: {
    name: string;
    intervalSeconds: number;
    /** The tenant of the runs' status records (the job itself covers whatever `run` does). */
    tenant: string;
    run: (ctx: JobContext<SlotData>) => Promise<R>;
  } & JobOptions,
): SelfScheduledJob<R> {
  const { intervalSeconds, tenant, run, ...options } = definition;
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < 1)
    throw new Error('intervalSeconds must be a whole number >= 1');
  const slotOf = (ms: number) => Math.floor(ms / 1000 / intervalSeconds);
  const enqueueSlot = (tx: Queryable, slot: number): Promise<Enqueued> =>
    enqueue(
      tx,
      job,
      { slot },
      {
        tenant,
        createdBy: null,
        singletonKey: `slot-${slot}`,
        startAfter: new Date(slot * intervalSeconds * 1000),
      },
    );
  const job: JobDefinition<SlotSchema, R> = defineJob({
    ...options,
    schema: slotSchema(),
    handler: async (ctx) => {
      const result = await run(ctx);
      const next = Math.max(ctx.data.slot, slotOf(Date.now())) + 1;
      await ctx.once('schedule-next', (tx) => enqueueSlot(tx, next));
      return result;
    },
  });
  return {
    job,
    intervalSeconds,
    slotOf,
    schedule: (db, now = Date.now()) => enqueueSlot(db, slotOf(now) + 1),
  };
}
