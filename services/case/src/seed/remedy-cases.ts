import { CASE_STATUS, REMEDY_ELIGIBILITY, demoMerchantId, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { INTAKE_MERCHANTS } from './new-case-intake';

/** Demo tenants whose configuration turns HAS_REMEDY on (config/tenants/acme.yaml). */
const REMEDY_TENANTS = ['acme'];
/** Eligible cases made per demo merchant: most of its New intake (new-case-intake.ts), not all of it. */
const PER_MERCHANT = 24;

/**
 * CE 3.0 remedy demo cases (spec 2 §2.8): in acme, the newest New cases of
 * each demo merchant become Visa 10.4 first-cycle fraud disputes with an ARN,
 * a transaction date and amount (and a Visa BIN: the card changes brand), so
 * that every merchant's users find cases whose upload modal offers 'Start a
 * CE 3.0 Remedy'. Deterministic: the same cases are chosen for the same seed.
 * The case_counts triggers keep the counts.
 */
export async function seedRemedyCases(tx: Queryable, tenant: DemoTenant): Promise<void> {
  if (!REMEDY_TENANTS.includes(tenant.id)) return;
  const merchants = INTAKE_MERCHANTS.map((k) => demoMerchantId(tenant, k));
  await tx.query(
    `with pick as (
       select id from (
         select c.id, row_number() over (partition by c.merchant_id order by c.date_post desc, c.id) as n
         from cases.cases c
         where c.tenant_id = $1 and c.merchant_id = any($2::bigint[]) and c.status_id = $3::int
       ) x where n <= $4::int
     )
     update cases.cases c set
       card_type_id = $5::int, reason_code_id = (select id from cases.reason_codes where code = $6 and card_type_id = $5::int),
       is_fraud = true, cycle_id = $7::int,
       cc_bin = case when c.card_type_id = $5::int then c.cc_bin
                     else '4' || lpad(((hashint8extended(c.id, 19) & 2147483647) % 100000)::text, 5, '0') end,
       arn = lpad((abs(hashint8extended(c.id, 13)) % 100000000000)::text, 11, '0')
             || lpad((abs(hashint8extended(c.id, 17)) % 1000000000000)::text, 12, '0'),
       date_trans = coalesce(c.date_trans, c.date_post - 12),
       trans_amt = coalesce(c.trans_amt, c.dispute_amt),
       trans_currency_id = coalesce(c.trans_currency_id, c.dispute_currency_id),
       comments = coalesce(c.comments, 'Card-absent fraud dispute: eligible for a CE 3.0 remedy')
     from pick where c.id = pick.id`,
    [
      tenant.id,
      merchants,
      CASE_STATUS.New,
      PER_MERCHANT,
      REMEDY_ELIGIBILITY.cardTypeId,
      REMEDY_ELIGIBILITY.reasonCode,
      REMEDY_ELIGIBILITY.cycleId,
    ],
  );
}
