import type { Queryable } from '@portal/core';
import { defineJob, enqueue, Type, type Enqueued } from '@portal/jobs';

/**
 * `case.report-key-fold` (migration 042): every minute, the changes writers appended to
 * report_monthly_key_delta are folded into report_monthly_key by this job alone, so that no writer
 * updates those few rows of a whole tenant (readers read both, so reports are exact meanwhile). It
 * schedules its own next run (the upload-link purge's pattern): the slot is the singleton key, so any
 * number of starters converge on one. Idempotent: a repeated fold finds nothing left to fold.
 */
export const REPORT_KEY_FOLD_SECONDS = 60;
const SYSTEM_TENANT = 'system';

const slotOf = (ms: number) => Math.floor(ms / 1000 / REPORT_KEY_FOLD_SECONDS);

export const reportKeyFoldJob = defineJob({
  name: 'case.report-key-fold',
  schema: Type.Object({ slot: Type.Integer({ minimum: 0 }) }),
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 600,
  handler: async (ctx) => {
    const { rows } = await ctx.db.query<{ folded: string }>(
      'select cases.report_monthly_key_fold() as folded',
    );
    const folded = Number(rows[0]?.folded ?? 0);
    await ctx.progress(100, `${folded} report key row(s) folded`);
    const next = Math.max(ctx.data.slot, slotOf(Date.now())) + 1;
    await ctx.once('schedule-next', (tx) => enqueueFold(tx, next));
    return { folded };
  },
});

function enqueueFold(tx: Queryable, slot: number): Promise<Enqueued> {
  return enqueue(
    tx,
    reportKeyFoldJob,
    { slot },
    {
      tenant: SYSTEM_TENANT,
      createdBy: null,
      singletonKey: `slot-${slot}`,
      startAfter: new Date(slot * REPORT_KEY_FOLD_SECONDS * 1000),
    },
  );
}

/** The first fold, at the next minute (the migrate step calls it; idempotent). */
export function scheduleReportKeyFold(db: Queryable, now = Date.now()): Promise<Enqueued> {
  return enqueueFold(db, slotOf(now) + 1);
}
