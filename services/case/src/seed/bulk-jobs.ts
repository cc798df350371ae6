import { demoMerchantId, type DemoMerchantKey, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { demoActor, type DemoActor } from './demo-actors';

/** Finished jobs of each kind per merchant below, one every DAYS_APART days, the newest a few days old. */
const JOBS_PER_MERCHANT = 3;
/** Days between jobs, and the days before a job whose closed cases of its criteria it is made to have closed. */
const DAYS_APART = 30;

/** The demo merchants whose users open Bulk Close and Auto Refund Rules, and who ran the jobs there. */
const RUNS: ReadonlyArray<{ merchant: DemoMerchantKey; by: string[] }> = [
  { merchant: 'merchantA1', by: ['merchant.admin', 'manager'] },
  { merchant: 'merchantA2', by: ['manager', 'admin'] },
  { merchant: 'merchantB1', by: ['agent', 'manager'] },
];

/**
 * Bulk close (auto-accept) and auto refund rule history (spec 2 §2.9, §4,
 * §5) of one tenant: per demo merchant, finished jobs as bulk-run.ts leaves
 * them (state done, preview and records equal, run end set). Each job is
 * built from rows already closed the way it closes them, so its count is
 * true: of the Do Not Represent / Loss cases completed in the job's window,
 * those of the commonest currency, cycle and reason code become the job's
 * (completed on its day, with its case history row); of the completed
 * Refunded alerts that arrived in the days before it, those of the commonest currency, source, card type and
 * descriptor become the rule's (completed on its day by its user, its refund
 * id, its two history rows instead of the manual ones).
 */
export async function seedBulkJobs(tx: Queryable, tenant: DemoTenant): Promise<void> {
  for (const run of RUNS) {
    const merchantId = demoMerchantId(tenant, run.merchant);
    const actors = run.by.map((u) => demoActor(tenant, u));
    await seedAutoAccept(tx, tenant.id, merchantId, actors);
    await seedAutoRefund(tx, tenant.id, merchantId, actors);
  }
}

/** The columns every seeded job shares, from its group g; `$1` tenant, `$2` merchant, `$3` user ids, `$4` usernames. */
const jobColumns = (
  kind: 'auto_accept' | 'auto_refund',
) => `$1, '${kind}', 'done', $2::bigint, array[$2::bigint], null::bigint[], '{}'::bigint[],
  ($3::bigint[])[1 + g.rank % cardinality($3::bigint[])], ($4::text[])[1 + g.rank % cardinality($4::text[])],
  0, ceil(g.top_amount / 50) * 50, g.currency_id`;
/** Preview and records, then created, confirmed and run end: the job ran `end`, minutes after it was submitted. */
const jobDates = (end: string) =>
  `g.n, g.n, ${end} - interval '4 minutes', ${end} - interval '2 minutes', ${end}`;

/** Job i's day: `$5` jobs, `$6` days apart. */
const PLAN = `plan as (
  select i, current_date - 4 - $6::int * i as day from generate_series(0, $5::int - 1) i
)`;

async function seedAutoAccept(tx: Queryable, tenant: string, merchantId: number, by: DemoActor[]) {
  await tx.query(
    `with ${PLAN},
     g as (
       select distinct on (p.i) p.i as rank, p.day, c.dispute_currency_id as currency_id, c.cycle_id, c.reason_code_id,
         count(*)::int as n, max(c.dispute_amt) as top_amount
       from plan p join cases.cases c on c.tenant_id = $1 and c.merchant_id = $2 and c.status_id = 4
         and c.verdict_id = 5 and c.date_completed > p.day - $6::int and c.date_completed <= p.day
       group by p.i, p.day, c.dispute_currency_id, c.cycle_id, c.reason_code_id
       order by p.i, n desc, c.reason_code_id, c.cycle_id, c.dispute_currency_id
     ),
     job as (
       insert into cases.bulk_jobs (tenant_id, kind, state, merchant_id, scope_merchant_ids, scope_mids_allowed,
         scope_mids_excluded, user_id, username, amt_from, amt_to, currency_id, cycle_id, reason_code_id,
         preview_num, records_num, date_created, date_confirmed, date_run_end)
       select ${jobColumns('auto_accept')}, g.cycle_id, g.reason_code_id, ${jobDates(`g.day + time '10:09'`)}
       from g order by g.day
       returning id, user_id, username, currency_id, cycle_id, reason_code_id, date_run_end
     ),
     closed as (
       update cases.cases c set date_completed = job.date_run_end::date
       from job
       where c.tenant_id = $1 and c.merchant_id = $2 and c.status_id = 4 and c.verdict_id = 5
         and c.date_completed > job.date_run_end::date - $6::int and c.date_completed <= job.date_run_end::date
         and c.dispute_currency_id = job.currency_id and c.cycle_id = job.cycle_id and c.reason_code_id = job.reason_code_id
       returning c.id, job.id as job_id, job.user_id, job.username, job.date_run_end
     )
     insert into cases.case_history (tenant_id, case_id, created_at, user_id, username, actor_id, actor_username, action)
     select $1, x.id, x.date_run_end, x.user_id, x.username, x.user_id, x.username,
       'Bulk auto-accept job #' || x.job_id || ': moved to Do Not Represent (Loss)'
     from closed x`,
    [tenant, merchantId, by.map((a) => a.id), by.map((a) => a.username), JOBS_PER_MERCHANT, DAYS_APART],
  );
}

async function seedAutoRefund(tx: Queryable, tenant: string, merchantId: number, by: DemoActor[]) {
  // Alerts expire 72 hours after they arrive: a rule runs hours after the newest alert of its criteria in
  // its slot and refunds those of the 72 hours before.
  await tx.query(
    `with ${PLAN},
     refunded_alerts as (
       select * from cases.alerts a
       where a.tenant_id = $1 and a.merchant_id = $2 and a.completed and a.outcome_id = 1 and a.source_id <> 3
     ),
     latest as (
       select p.i, a.currency_id, a.source_id, a.card_type_id, a.descriptor_id,
         max(a.alert_date) + interval '2 hours' as run_at
       from plan p join refunded_alerts a on a.alert_date > p.day - $6::int and a.alert_date <= p.day
       group by p.i, a.currency_id, a.source_id, a.card_type_id, a.descriptor_id
     ),
     g as (
       select distinct on (l.i) l.i as rank, l.run_at, l.currency_id, l.source_id, l.card_type_id, l.descriptor_id,
         count(*)::int as n, max(a.trans_amount) as top_amount
       from latest l join refunded_alerts a on a.currency_id = l.currency_id and a.source_id = l.source_id
         and a.card_type_id = l.card_type_id and a.descriptor_id = l.descriptor_id
         and a.alert_date > l.run_at - interval '72 hours' and a.alert_date < l.run_at
       group by l.i, l.run_at, l.currency_id, l.source_id, l.card_type_id, l.descriptor_id
       order by l.i, n desc, l.descriptor_id, l.source_id, l.card_type_id, l.currency_id
     ),
     job as (
       insert into cases.bulk_jobs (tenant_id, kind, state, merchant_id, scope_merchant_ids, scope_mids_allowed,
         scope_mids_excluded, user_id, username, amt_from, amt_to, currency_id, source_id, card_type_id,
         mid_descriptor_id, preview_num, records_num, date_created, date_confirmed, date_run_end)
       select ${jobColumns('auto_refund')}, g.source_id, g.card_type_id, g.descriptor_id, ${jobDates('g.run_at')}
       from g order by g.run_at
       returning id, user_id, username, currency_id, source_id, card_type_id, mid_descriptor_id, date_run_end
     ),
     refunded as (
       update cases.alerts a set refund_id = 'AR-' || job.id || '-' || a.id, completed_date = job.date_run_end,
         completed_by = job.user_id, completed_username = job.username
       from job join refunded_alerts r on r.currency_id = job.currency_id and r.source_id = job.source_id
         and r.card_type_id = job.card_type_id and r.descriptor_id = job.mid_descriptor_id
         and r.alert_date > job.date_run_end - interval '72 hours' and r.alert_date < job.date_run_end
       where a.id = r.id
       returning a.id, job.id as job_id, job.user_id, job.username, job.date_run_end
     )
     update cases.alert_history h set user_id = r.user_id, username = r.username, actor_id = r.user_id,
       created_at = r.date_run_end + case when h.action = 'Completed' then interval '1 millisecond' else interval '0' end,
       action = case when h.action = 'Completed' then 'Completed by auto refund rule #' || r.job_id
                     else 'Outcome set to Refunded by auto refund rule #' || r.job_id end
     from refunded r where h.alert_id = r.id`,
    [tenant, merchantId, by.map((a) => a.id), by.map((a) => a.username), JOBS_PER_MERCHANT, DAYS_APART],
  );
}
