import { ERT_RESOLVED_STATUS, demoMerchantId, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { demoActor, demoStaff } from './demo-actors';
import { INTAKE_MERCHANTS } from './new-case-intake';

/** ERTs on the cases of each demo merchant (so its users see some) and on the rest of the tenant. */
const PER_DEMO_MERCHANT = 16;
const ELSEWHERE = 48;
/** ERTs are added to cases of the last this many days. */
const DAYS = 150;

/** What people write in an ERT: a request about the case's order ({order}). */
const CONTENTS = [
  'Issuer asked for proof of delivery on {order}; upload the signed carrier receipt.',
  'Cardholder says the subscription behind {order} was cancelled; attach the cancellation log.',
  'A refund for {order} went out before the dispute; send the refund ARN to the acquirer.',
  'Duplicate processing claimed on {order}; confirm the second authorization was voided.',
  'AVS and CVV matched on {order}; add the fraud screening report to the response.',
  'The customer contacted support about {order}; attach the e-mail thread with the offer made.',
  'Merchant to confirm the service date of {order} so the representment can go out.',
  'Descriptor not recognised by the cardholder on {order}; check the MID descriptor with the processor.',
  'Digital goods on {order} were downloaded; export the IP address and device log.',
  'Partial refund offered on {order}; confirm the amount still in dispute.',
  'Terms of sale were accepted at checkout for {order}; add the screenshot with the timestamp.',
  'Issuer documents for {order} mention a second cardholder; verify the account holder name.',
];

/**
 * ERT records (spec 3 §2 'ERT', §9) of one tenant: cases of the last 150 days,
 * each ERT added a few hours after its case came in, by the staff or now and
 * then by the merchant's own admin (merchantA1) or partner admin (partnerA's
 * subtree). Older ones are resolved (a fifth of those archived since), the
 * last month's a mix of open, approved and resolved, this week's mostly open.
 * The rows and case history are those of ert-writes.ts: defaults of spec 3 §9
 * (type 7), 'ERT added: ...' and 'ERT #id resolved' in the case history.
 */
export async function seedErts(tx: Queryable, tenant: DemoTenant): Promise<void> {
  const staff = demoStaff(tenant);
  const merchantAdmin = demoActor(tenant, 'merchant.admin');
  const partnerAdmin = demoActor(tenant, 'partner.admin');
  await tx.query(
    `with pool as (
       select c.id as case_id, c.merchant_id, m.parent_id, c.order_id, c.date_created,
         c.merchant_id = any($2::bigint[]) as demo,
         row_number() over (partition by case when c.merchant_id = any($2::bigint[]) then c.merchant_id else 0 end
                            order by hashint8extended(c.id, 3101), c.id) as n
       from cases.cases c join cases.merchants m on m.id = c.merchant_id
       where c.tenant_id = $1 and c.date_created > now() - make_interval(days => $3::int)
         and c.date_created < now() - interval '3 hours' and c.order_id is not null
     ),
     picked as (
       select p.*, hashint8extended(p.case_id, 3102) as h from pool p
       where p.n <= case when p.demo then $4::int else $5::int end
     ),
     timed as (
       select p.*, ((p.h >> 8) & 1023) as r,
         -- A few hours to five days after the case came in; for this week's cases, part of the time since.
         p.date_created + least(make_interval(hours => (2 + (p.h & 127))::int),
                                (now() - p.date_created) * (0.2 + 0.1 * ((p.h >> 56) & 7))) as at,
         p.merchant_id = $9::bigint and ((p.h >> 30) & 3) = 0 as by_merchant,
         (p.parent_id = $12::bigint or p.merchant_id = $12::bigint) and ((p.h >> 30) & 3) = 1 as by_partner
       from picked p
     ),
     shaped as (
       select t.*,
         case when t.at < now() - interval '30 days' then (case when t.r < 800 then 3 else 4 end)
              when t.at < now() - interval '7 days' then (case when t.r < 450 then 3 when t.r < 700 then 2 else 1 end)
              else (case when t.r < 200 then 3 when t.r < 450 then 2 else 1 end) end as status_id,
         case when ((t.h >> 20) & 1023) < 520 then 1 when ((t.h >> 20) & 1023) < 870 then 2 else 3 end as level_id,
         1 + (((t.h >> 40) & 1023) % 3)::int as staff_no,
         1 + (((t.h >> 50) & 1023) % 2)::int as resolver_no,
         -- Resolved 4 hours to 5 days later, approved within a day and a half: recent ones in part of the time since.
         t.at + least(make_interval(hours => (4 + ((t.h >> 12) & 127))::int), (now() - t.at) * 0.8) as resolved_at,
         t.at + least(make_interval(hours => (1 + ((t.h >> 44) & 31))::int), (now() - t.at) * 0.4) as approved_at
       from timed t
     ),
     ins as (
       insert into cases.erts (tenant_id, case_id, merchant_id, content, status_id, is_active, level_id, type_id, user_id,
         created_by, created_at, resolved_by, resolved_user_id, date_resolved, date_approved, date_archived)
       select $1, s.case_id, s.merchant_id,
         replace(($6::text[])[1 + ((s.h >> 34) & 1023) % cardinality($6::text[])], '{order}', s.order_id),
         s.status_id, s.status_id in (1, 2), s.level_id, 7,
         case when s.by_merchant then $11::bigint when s.by_partner then $14::bigint else ($8::bigint[])[s.staff_no] end,
         case when s.by_merchant then $10 when s.by_partner then $13 else ($7::text[])[s.staff_no] end,
         s.at,
         case when s.status_id >= $15 then (case when s.merchant_id = $9::bigint and s.resolver_no = 1 then $10
                                                 else ($7::text[])[s.resolver_no] end) end,
         case when s.status_id >= $15 then (case when s.merchant_id = $9::bigint and s.resolver_no = 1 then $11::bigint
                                                 else ($8::bigint[])[s.resolver_no] end) end,
         case when s.status_id >= $15 then s.resolved_at end,
         case when s.status_id = 2 or (s.status_id >= $15 and s.r % 2 = 0) then least(s.approved_at, s.resolved_at) end,
         case when s.status_id = 4 then s.resolved_at + make_interval(days => (7 + s.r % 14)::int) end
       from shaped s order by s.at, s.case_id
       returning id, tenant_id, case_id, content, user_id, created_by, created_at, resolved_user_id, resolved_by, date_resolved
     )
     insert into cases.case_history (tenant_id, case_id, created_at, user_id, username, actor_id, actor_username, action)
     select tenant_id, case_id, created_at, user_id, created_by, user_id, created_by,
       'ERT added: ' || case when length(content) > 80 then left(content, 80) || '...' else content end
     from ins
     union all
     select tenant_id, case_id, date_resolved, resolved_user_id, resolved_by, resolved_user_id, resolved_by,
       'ERT #' || id || ' resolved'
     from ins where date_resolved is not null`,
    [
      tenant.id,
      INTAKE_MERCHANTS.map((k) => demoMerchantId(tenant, k)),
      DAYS,
      PER_DEMO_MERCHANT,
      ELSEWHERE,
      CONTENTS,
      staff.map((s) => s.username),
      staff.map((s) => s.id),
      demoMerchantId(tenant, 'merchantA1'),
      merchantAdmin.username,
      merchantAdmin.id,
      demoMerchantId(tenant, 'partnerA'),
      partnerAdmin.username,
      partnerAdmin.id,
      ERT_RESOLVED_STATUS,
    ],
  );
}
