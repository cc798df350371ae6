import { selfScheduledJob } from '@portal/jobs';

/**
 * `case.report-key-fold` (migration 042): every minute, the changes writers appended to
 * report_monthly_key_delta are folded into report_monthly_key by this job alone, so that no writer
 * updates those few rows of a whole tenant (readers read both, so reports are exact meanwhile).
 * Self-scheduled (selfScheduledJob). Idempotent: a repeated fold finds nothing left to fold.
 */
export const REPORT_KEY_FOLD_SECONDS = 60;

export const reportKeyFold = selfScheduledJob({
  name: 'case.report-key-fold',
  intervalSeconds: REPORT_KEY_FOLD_SECONDS,
  tenant: 'system',
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 600,
  run: async (ctx) => {
    const { rows } = await ctx.db.query<{ folded: string }>(
      'select cases.report_monthly_key_fold() as folded',
    );
    const folded = Number(rows[0]?.folded ?? 0);
    await ctx.progress(100, `${folded} report key row(s) folded`);
    return { folded };
  },
});

export const reportKeyFoldJob = reportKeyFold.job;
