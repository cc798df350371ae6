import { CASE_STATUS, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { demoStaff } from './demo-actors';

/** Case updater uploads per tenant: one about every nine days over the last ten weeks. */
const UPLOADS = 8;
const DAYS_APART = 9;
/** Verdicts an upload sets on completed cases (cases.verdicts): Win, Loss. */
const OUTCOME_VERDICTS = [4, 5];

/**
 * Case updater history (spec 3 §2 'Case Updater') of one tenant: the staff
 * upload the network's outcomes of the cases completed since the previous
 * upload. Each upload names real cases of the tenant (those completed in its
 * window with a Win or Loss verdict, which the upload set) plus a row or two
 * that changed nothing, and ends as updater-job.ts ends one: state done,
 * 'n of m row(s) updated.', and a 'Case updater upload #id: verdict set to ...'
 * history row on each case it changed. No result file: the seed writes no
 * object (loc is empty for these rows).
 */
export async function seedUpdaterHistory(tx: Queryable, tenant: DemoTenant): Promise<void> {
  const staff = demoStaff(tenant);
  await tx.query(
    `with plan as (
       select i, ($2::text[])[1 + i % cardinality($2::text[])] as username,
         ($3::bigint[])[1 + i % cardinality($3::bigint[])] as user_id,
         now() - make_interval(days => i * $5::int + 1, hours => (i * 5) % 9, mins => (i * 17) % 60) as at
       from generate_series(1, $4::int) i
     ),
     changed as (
       select p.i, c.id as case_id, c.verdict_id
       from plan p join cases.cases c on c.tenant_id = $1 and c.status_id = $6::smallint
         and c.verdict_id = any($7::int[])
         and c.date_completed >= (p.at - make_interval(days => $5::int))::date and c.date_completed < p.at::date
     ),
     counted as (
       select p.*, (select count(*)::int from changed x where x.i = p.i) as applied, 1 + p.i % 3 as unchanged,
         'verdicts-' || to_char(p.at, 'YYYY-MM-DD') || '.csv' as filename
       from plan p
     ),
     ins as (
       insert into cases.updater_uploads (tenant_id, user_id, username, filename, s3_key, size, state, scope_merchant_ids,
         scope_mids_allowed, scope_mids_excluded, rows_total, rows_applied, message, date_created, date_finished)
       select $1, k.user_id, k.username, k.filename,
         $1 || '/case-updater/' || md5($1 || '/updater/' || k.i)::uuid || '/' || k.filename,
         11 + (k.applied + k.unchanged) * 14, 'done', null, null, '{}', k.applied + k.unchanged, k.applied,
         k.applied || ' of ' || (k.applied + k.unchanged) || ' row(s) updated.',
         k.at, k.at + make_interval(secs => 20 + k.applied)
       from counted k order by k.i desc
       returning id, user_id, username, filename, date_finished
     )
     insert into cases.case_history (tenant_id, case_id, created_at, user_id, username, actor_id, actor_username, action)
     select $1, x.case_id, u.date_finished, u.user_id, u.username, u.user_id, u.username,
       'Case updater upload #' || u.id || ': verdict set to ' || v.name
     from ins u join counted k on k.filename = u.filename
     join changed x on x.i = k.i join cases.verdicts v on v.id = x.verdict_id`,
    [
      tenant.id,
      staff.map((s) => s.username),
      staff.map((s) => s.id),
      UPLOADS,
      DAYS_APART,
      CASE_STATUS.TransportCompleted,
      OUTCOME_VERDICTS,
    ],
  );
}
