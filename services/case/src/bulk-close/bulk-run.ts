import { BULK_JOB_NAMES } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { defineJob, emitEvents, JobError, Type, type JobContext } from '@portal/jobs';
import { ALERTS_OF_JOB, CASES_OF_JOB } from './bulk-criteria';

/** Rows per transaction: short row locks, no table-wide lock, progress a person can follow. */
export const BULK_BATCH = 2000;
/**
 * Batches in flight at once, each on its own connection. Most of a batch's time is the index writes of
 * its rows, which overlap; the batch then updates the job row before the triggers' shared counters
 * (case_counts, report_daily), so that row orders those writes and two batches never deadlock.
 */
const PARALLEL_BATCHES = 2;

const schema = Type.Object({ bulk_job_id: Type.Integer({ minimum: 1 }) });
type Data = { bulk_job_id: number };

/** The rows a batch changed, for their domain events (design §11), in the batch's transaction. */
interface Changed {
  id: number;
  merchant_id: number;
}
const CHANGED = `(select coalesce(json_agg(json_build_object('id', upd.id, 'merchant_id', upd.merchant_id)), '[]'::json) from upd) as changed`;

const caseClosedEvent = (c: Changed, jobId: number) => ({
  type: 'CASE_STATUS_CHANGED' as const,
  merchant_id: c.merchant_id,
  data: {
    case_id: c.id,
    previous_status: 'New',
    status: 'DoNotRepresent',
    verdict: 'Loss',
    bulk_job_id: jobId,
  },
});
const alertRefundedEvent = (a: Changed, jobId: number) => ({
  type: 'ALERT_STATUS_CHANGED' as const,
  merchant_id: a.merchant_id,
  data: { alert_id: a.id, outcome: 'Refunded', completed: true, bulk_job_id: jobId },
});

/**
 * One batch of an auto-accept job: the next New cases matching the job move
 * to Do Not Represent with the verdict Loss, each with a history row naming
 * the job, and the job's records_num grows by the batch, all in one
 * transaction. A retried or resumed run finds only the cases not yet closed
 * (they are no longer New), so nothing changes twice.
 */
async function acceptBatch(tx: Queryable, jobId: number): Promise<number> {
  // Lateral: the job's criteria are constants of the inner scan, so cases_new_criteria (029) hands out the
  // cases in id order and the scan stops at the batch instead of sorting every New case of the tenant.
  const { rows } = await tx.query<{ n: number; tenant: string; changed: Changed[] }>(
    `with picked as (
       select p.id from cases.bulk_jobs j cross join lateral (
         select c.id from cases.cases c where ${CASES_OF_JOB} order by c.id limit $2 for update of c skip locked
       ) p where j.id = $1
     ),
     upd as (
       update cases.cases c set status_id = 4, verdict_id = 5, date_completed = current_date, updated_at = now()
       from picked where c.id = picked.id returning c.id, c.tenant_id, c.merchant_id
     ),
     hist as (
       insert into cases.case_history (tenant_id, case_id, user_id, username, actor_id, actor_username, action)
       select upd.tenant_id, upd.id, j.user_id, j.username, j.user_id, j.username,
         'Bulk auto-accept job #' || j.id || ': moved to Do Not Represent (Loss)'
       from upd join cases.bulk_jobs j on j.id = $1
     ),
     n as (select count(*)::int as n from upd)
     update cases.bulk_jobs set records_num = records_num + n.n from n where id = $1
     returning n.n, tenant_id as tenant, ${CHANGED}`,
    [jobId, BULK_BATCH],
  );
  const r = rows[0];
  if (r)
    await emitEvents(
      tx,
      r.tenant,
      r.changed.map((c) => caseClosedEvent(c, jobId)),
    );
  return r?.n ?? 0;
}

/** One batch of an auto-refund rule: matching open alerts get the outcome Refunded and are completed. */
async function refundBatch(tx: Queryable, jobId: number): Promise<number> {
  const { rows } = await tx.query<{ n: number; tenant: string; changed: Changed[] }>(
    `with picked as (
       select a.id, a.outcome_id as old_outcome from cases.bulk_jobs j join cases.alerts a on true
       join cases.alert_descriptors ad on ad.id = a.descriptor_id and ${ALERTS_OF_JOB}
       where j.id = $1 order by a.id limit $2 for update of a skip locked
     ),
     upd as (
       update cases.alerts a set outcome_id = 1, refund_id = 'AR-' || $1::text || '-' || a.id,
         order_id = coalesce(a.order_id, 'N/A'), customer_name = coalesce(a.customer_name, 'Cardholder'),
         case_id = null, completed = true, completed_date = now(), completed_by = j.user_id,
         completed_username = j.username, updated_at = now()
       from picked, cases.bulk_jobs j
       where a.id = picked.id and j.id = $1
       returning a.id, a.tenant_id, a.merchant_id, j.user_id, j.username
     ),
     hist as (
       insert into cases.alert_history (tenant_id, alert_id, created_at, user_id, username, actor_id, old_outcome_id,
         new_outcome_id, action)
       select upd.tenant_id, upd.id, now(), upd.user_id, upd.username, upd.user_id, picked.old_outcome, 1,
         'Outcome set to Refunded by auto refund rule #' || $1::text from upd join picked on picked.id = upd.id
       union all
       select tenant_id, id, now() + interval '1 millisecond', user_id, username, user_id, 1, 1,
         'Completed by auto refund rule #' || $1::text from upd
     ),
     n as (select count(*)::int as n from upd)
     update cases.bulk_jobs set records_num = records_num + n.n from n where id = $1
     returning n.n, tenant_id as tenant, ${CHANGED}`,
    [jobId, BULK_BATCH],
  );
  const r = rows[0];
  if (r)
    await emitEvents(
      tx,
      r.tenant,
      r.changed.map((a) => alertRefundedEvent(a, jobId)),
    );
  return r?.n ?? 0;
}

async function run(
  ctx: JobContext<Data>,
  batch: (tx: Queryable, id: number) => Promise<number>,
): Promise<number> {
  const id = ctx.data.bulk_job_id;
  const start = await ctx.db.query<{ preview_num: number; records_num: number }>(
    `update cases.bulk_jobs set state = 'running' where id = $1 and tenant_id = $2 and state in ('confirmed', 'running')
     returning preview_num, records_num`,
    [id, ctx.tenant],
  );
  const job = start.rows[0];
  // Done, cancelled or unknown: a repeated delivery changes nothing.
  if (!job) return 0;
  let done = job.records_num;
  // One loop per connection: SKIP LOCKED gives each its own rows. A loop stops when it finds less than a
  // batch not locked by the others, and those others go round again after a full batch.
  const loop = async () => {
    for (;;) {
      if (ctx.signal.aborted) throw new JobError('The job ran out of time; it resumes where it stopped.');
      const n = await ctx.db.transaction((tx) => batch(tx, id));
      done += n;
      await ctx.progress(
        Math.min(99, Math.round((100 * done) / Math.max(job.preview_num, 1))),
        `${done} records updated`,
      );
      if (n < BULK_BATCH) return;
    }
  };
  // Every loop ends before the attempt does: with Promise.all, the first loop's error ended the attempt
  // while another loop's batch still ran, and the retry counted from before that batch (issue 31).
  const ended = await Promise.allSettled(Array.from({ length: PARALLEL_BATCHES }, loop));
  const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  await ctx.db.query(
    `update cases.bulk_jobs set state = 'done', date_run_end = now(), message = records_num || ' records updated.'
     where id = $1`,
    [id],
  );
  return done;
}

/** Bulk auto-accept (spec 2 §2.9, §4): closes the matching New cases in batches. */
export const autoAcceptJob = defineJob({
  name: BULK_JOB_NAMES.autoAccept,
  schema,
  expireInSeconds: 3600,
  handler: (ctx: JobContext<Data>) => run(ctx, acceptBatch),
});

/** Auto-refund rule (spec 2 §5): refunds and completes the matching open alerts. */
export const autoRefundJob = defineJob({
  name: BULK_JOB_NAMES.autoRefund,
  schema,
  expireInSeconds: 3600,
  handler: (ctx: JobContext<Data>) => run(ctx, refundBatch),
});

export const BULK_JOBS = [autoAcceptJob, autoRefundJob];
