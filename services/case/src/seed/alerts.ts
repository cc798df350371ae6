import {
  DEMO_USERS,
  SEED_MERCHANT_OFFSET,
  demoMerchantId,
  demoUserId,
  tenantIdBase,
  type DemoTenant,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Alert ids of the seed: tenant number * 10,000,000 + row number (the sequence starts above them). */
const ALERT_ID_BLOCK = 10_000_000;

/** Alerts per tenant: half the cases, at least 600 so every demo merchant has a few in the last week. */
function alertCount(casesPerTenant: number): number {
  return Math.max(600, Math.round(casesPerTenant / 2));
}

const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'David',
  'Susan',
  'Daniel',
  'Karen',
  'Omar',
  'Mei',
  'Lucas',
  'Ana',
];
const LAST = [
  'Smith',
  'Garcia',
  'Johnson',
  'Lee',
  'Brown',
  'Nguyen',
  'Miller',
  'Davis',
  'Khan',
  'Lopez',
  'Wilson',
];

/**
 * The alerts of one tenant, set-based like the cases (hash of the row number,
 * dates relative to the seed day): sources Ethoca 48%, CDRN 34%, RDR 18%
 * (RDR is Visa only and resolves itself with a refund); alert dates over 18
 * months skewed to the recent ones; a quarter of the alerts on the demo
 * merchants; about 6% on a descriptor no MID is mapped to. Expired alerts
 * are completed with an outcome, recent ones open or marked.
 */
export async function seedAlerts(tx: Queryable, tenant: DemoTenant, casesPerTenant: number): Promise<void> {
  const base = tenantIdBase(tenant);
  const demoLimit = base + SEED_MERCHANT_OFFSET;
  const admin = DEMO_USERS.find((u) => u.username === 'merchant.admin');
  if (!admin) throw new Error('DEMO_USERS needs merchant.admin');
  // Self service (2) for the demo merchants the merchant users belong to and every fifth generated one.
  await tx.query(
    `update cases.merchants set alerts_service_level_id = 2
     where tenant_id = $1 and (id = any($2::bigint[]) or (id >= $3 and id % 5 = 0))`,
    [tenant.id, [demoMerchantId(tenant, 'merchantA1'), demoMerchantId(tenant, 'merchantB1')], demoLimit],
  );
  // Descriptors: every MID descriptor (mapped) plus one web descriptor per merchant that maps to no MID.
  await tx.query(
    `insert into cases.alert_descriptors (tenant_id, merchant_id, descriptor, mid_id)
     select d.tenant_id, m.merchant_id, d.descriptor, d.mid_id
     from cases.descriptors d join cases.mids m on m.id = d.mid_id where d.tenant_id = $1
     union all
     select m.tenant_id, m.id, upper(left(regexp_replace(m.business_name, '[^A-Za-z]', '', 'g'), 14)) || '*WEB', null
     from cases.merchants m where m.tenant_id = $1 and exists (select 1 from cases.mids x where x.merchant_id = m.id)
     on conflict do nothing`,
    [tenant.id],
  );
  await tx.query(
    `insert into cases.alerts (id, tenant_id, merchant_id, descriptor_id, source_id, order_id, trans_amount, currency_id,
       trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date, outcome_id, refund_id, customer_name,
       completed, completed_date, completed_by, completed_username, updated_at)
     with d as (
       select id, merchant_id, mid_id is null as unmapped, merchant_id < $3 as demo,
         (row_number() over (partition by mid_id is null, merchant_id < $3 order by id) - 1)::int as rn
       from cases.alert_descriptors where tenant_id = $1
     ),
     dc as (select unmapped, demo, count(*)::int as n from d group by 1, 2),
     h as (
       select g, hashint8extended(g::bigint, $2::bigint * 11 + 1) as x1, hashint8extended(g::bigint, $2::bigint * 11 + 2) as x2,
         hashint8extended(g::bigint, $2::bigint * 11 + 3) as x3
       from generate_series(1, $4::int) g
     ),
     a as (
       select h.*,
         case when (x1 & 1023) < 492 then 1 when (x1 & 1023) < 840 then 2 else 3 end as src,
         ((x1 >> 10) & 1023) < 61 as pick_unmapped,
         ((x1 >> 20) & 1023) < 256 as pick_demo,
         ((x2 & 65535) / 65536.0) as u,
         ((x2 >> 16) & 1023) as r,
         ((x3 >> 16) & 65535) / 65535.0 as v
       from h
     ),
     b as (
       select a.*,
         now() - make_interval(mins => floor(548 * 1440 * u * u)::int) as at,
         case when src = 3 then 1 else (case when ((x2 >> 30) & 1023) < 615 then 1 when ((x2 >> 30) & 1023) < 922 then 2
              when ((x2 >> 30) & 1023) < 993 then 3 else 4 end) end as ct
       from a
     ),
     c as (
       select b.*,
         -- RDR resolves itself; expired alerts were worked; open ones may carry an outcome already.
         case when src = 3 or at + interval '72 hours' < now() then true else false end as done,
         case when src = 3 then 1
              when r < 560 then 1 when r < 700 then 2 when r < 760 then 3 when r < 830 then 4 when r < 870 then 5
              when r < 930 then 7 else 8 end as oc
       from b
     )
     select $2::bigint * ${ALERT_ID_BLOCK} + c.g, $1, d.merchant_id, d.id, c.src,
       'ORD-' || (200000 + ((c.x3 >> 8) & 16777215))::text,
       round((8 * power(150, c.v))::numeric, 2),
       case when ((c.x3 >> 34) & 1023) < 800 then 1 when ((c.x3 >> 34) & 1023) < 900 then 2 when ((c.x3 >> 34) & 1023) < 960 then 3 else 4 end,
       (c.at - make_interval(days => (1 + ((c.x3 >> 44) & 15))::int))::date,
       c.ct,
       case c.ct when 1 then '4' || lpad(((c.x1 >> 40) & 32767)::text, 5, '0')
                 when 2 then '5' || (1 + ((c.x1 >> 40) & 3))::text || lpad(((c.x1 >> 44) & 2047)::text, 4, '0')
                 when 3 then '37' || lpad(((c.x1 >> 40) & 8191)::text, 4, '0')
                 else '6011' || lpad(((c.x1 >> 40) & 63)::text, 2, '0') end,
       lpad((((c.x2 >> 44) & 16383) % 10000)::text, 4, '0'),
       c.at, c.at + interval '72 hours',
       case when c.done or (c.r & 3) = 0 then c.oc end,
       case when (c.done or (c.r & 3) = 0) and c.oc <= 3 then 'RF-' || lpad(((c.x3 >> 20) & 16777215)::text, 8, '0') end,
       case when (c.done or (c.r & 3) = 0) and c.oc <= 3
            then ($6::text[])[1 + (c.g % 12)::int] || ' ' || ($7::text[])[1 + ((c.g / 12) % 11)::int] end,
       c.done,
       case when c.done then c.at + make_interval(mins => (5 + ((c.x3 >> 50) & 2047))::int) end,
       case when c.done and c.src <> 3 and d.demo then $5::bigint end,
       case when c.done then (case when c.src <> 3 and d.demo then $8 else 'system' end) end,
       c.at
     from c
     join dc on dc.unmapped = c.pick_unmapped and dc.demo = c.pick_demo
     join d on d.unmapped = c.pick_unmapped and d.demo = c.pick_demo and d.rn = ((c.x2 >> 40) & 16777215) % dc.n`,
    [
      tenant.id,
      tenant.number,
      demoLimit,
      alertCount(casesPerTenant),
      demoUserId(tenant, admin),
      FIRST,
      LAST,
      admin.username,
    ],
  );
  // History: the marking of every alert with an outcome, and the completion.
  await tx.query(
    `insert into cases.alert_history (tenant_id, alert_id, created_at, user_id, username, actor_id, old_outcome_id,
       new_outcome_id, action)
     select a.tenant_id, a.id, a.alert_date + interval '2 minutes', a.completed_by, coalesce(a.completed_username, 'system'),
       a.completed_by, null, a.outcome_id, 'Outcome set to ' || o.name
     from cases.alerts a join cases.alert_outcomes o on o.id = a.outcome_id where a.tenant_id = $1
     union all
     select a.tenant_id, a.id, a.completed_date, a.completed_by, a.completed_username, a.completed_by, a.outcome_id,
       a.outcome_id, 'Completed'
     from cases.alerts a where a.tenant_id = $1 and a.completed`,
    [tenant.id],
  );
}
