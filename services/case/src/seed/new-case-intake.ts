import { CASE_STATUS, demoMerchantId, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** The demo merchants that demo users belong to (contracts/demo.ts): each needs New cases to work on. */
export const INTAKE_MERCHANTS = ['merchantA1', 'merchantA2', 'merchantB1'] as const;
/** New cases added to each of them: enough for many uploads, builder runs and remedies in one demo. */
const INTAKE_PER_MERCHANT = 36;
/** Intake days: posted within the last this many days, so every due date is at least 11 days away. */
const INTAKE_DAYS = 10;
/** Verdict of a case nobody has worked yet ('Verdict Pending'), as cases.ts gives New cases. */
const VERDICT_PENDING = 3;

/**
 * This week's intake of each demo merchant (issue 28.4). Across 18 months the
 * generator leaves a merchant only the few New cases of its last month, and a
 * demo user uploads them away in minutes; so INTAKE_PER_MERCHANT of the
 * merchant's closed cases become recently posted New cases (due 20 to 45 days
 * after posting, by cycle, as in cases.ts). The count of cases per tenant (the
 * seed scale) stays as it is. Only cases without history, flag or assignee are
 * taken, and they are picked by a hash spread over the whole 18 months, so no
 * written history or month of the reports loses its cases.
 * Runs before the issuer documents, alerts and report data that read the cases.
 */
export async function seedNewCaseIntake(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await tx.query(
    `with pick as (
       select id from (
         select c.id, row_number() over (partition by c.merchant_id order by hashint8extended(c.id, 2804), c.id) as n
         from cases.cases c
         where c.tenant_id = $1 and c.merchant_id = any($2::bigint[]) and c.status_id = any($3::smallint[])
           and c.id % 4 <> 0 and c.assigned_user_id is null and c.flag_id is null
       ) x where n <= $4::int
     ),
     d as (
       select p.id, current_date - ((hashint8extended(p.id, 2805) & 1023) % $5::int)::int as post,
         hashint8extended(p.id, 2806) as h
       from pick p
     )
     update cases.cases c set
       status_id = $6::smallint, status_group_id = s.status_group_id, verdict_id = $7::int,
       date_post = d.post,
       date_due = d.post + case c.cycle_id when 1 then 30 when 2 then 45 else 20 end,
       date_trans = d.post - (3 + (d.h & 31))::int,
       date_completed = null,
       date_created = least(now(), d.post + interval '1 day' + make_interval(mins => ((d.h >> 8) & 1023)::int)),
       -- The case number starts with the post date (cases.ts).
       case_no = to_char(d.post, 'YYMMDD') || substr(c.case_no, 7)
     from d, cases.statuses s
     where c.id = d.id and s.id = $6::smallint`,
    [
      tenant.id,
      INTAKE_MERCHANTS.map((k) => demoMerchantId(tenant, k)),
      [CASE_STATUS.DoNotRepresent, CASE_STATUS.Expired, CASE_STATUS.TransportCompleted],
      INTAKE_PER_MERCHANT,
      INTAKE_DAYS,
      CASE_STATUS.New,
      VERDICT_PENDING,
    ],
  );
}
