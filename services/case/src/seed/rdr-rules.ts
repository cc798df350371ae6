import { demoMerchantId, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { demoActor } from './demo-actors';
import { INTAKE_MERCHANTS } from './new-case-intake';

/** Rule subjects and operators (migration 015): the ids the rules editor sends. */
const SUBJECT = { bin: 1, date: 2, amount: 3, currency: 4, purchase: 5, category: 6, condition: 7 } as const;
const OP = { contains: 1, equalTo: 2, greaterThan: 3, lessThan: 4, startsWith: 6, isIn: 7 } as const;

interface Condition {
  subject: number;
  operator: number;
  value: string;
}

/**
 * The rule sets merchants choose (each valid for rdr-rules.ts saveRules:
 * operators of the subject's type, amounts like 1,234.56, dates yyyy-mm-dd).
 * `{since}` is a date 90 days before the seed day.
 */
const RULE_SETS: readonly Condition[][] = [
  [
    { subject: SUBJECT.amount, operator: OP.lessThan, value: '100.00' },
    { subject: SUBJECT.currency, operator: OP.equalTo, value: 'USD' },
  ],
  [
    { subject: SUBJECT.category, operator: OP.equalTo, value: 'Consumer Dispute' },
    { subject: SUBJECT.amount, operator: OP.lessThan, value: '250.00' },
  ],
  [{ subject: SUBJECT.condition, operator: OP.isIn, value: '13.1, 13.2, 13.3' }],
  [
    { subject: SUBJECT.bin, operator: OP.startsWith, value: '4147' },
    { subject: SUBJECT.amount, operator: OP.lessThan, value: '75.00' },
  ],
  [
    { subject: SUBJECT.purchase, operator: OP.startsWith, value: 'SUB-' },
    { subject: SUBJECT.amount, operator: OP.lessThan, value: '49.99' },
  ],
  [
    { subject: SUBJECT.date, operator: OP.greaterThan, value: '{since}' },
    { subject: SUBJECT.category, operator: OP.equalTo, value: 'Fraud' },
    { subject: SUBJECT.amount, operator: OP.lessThan, value: '1,000.00' },
  ],
];

/**
 * Verifi RDR automatic refund rules (spec 3 §2 'Rules editor') of one tenant,
 * on owners whose verifi_rdr deflector is pending or active (the only ones
 * saveRules accepts): every demo merchant and a third of the others, and every
 * such MID of the demo merchants and a third of the others. Saved by the
 * merchant's admin for merchantA1, partner.admin in Summit Partners' subtree,
 * else the manager; over the last two months.
 */
export async function seedRdrRules(tx: Queryable, tenant: DemoTenant): Promise<void> {
  const sets = RULE_SETS.flatMap((set, s) => set.map((c, position) => ({ s: s + 1, position, ...c })));
  const merchantAdmin = demoActor(tenant, 'merchant.admin');
  const partnerAdmin = demoActor(tenant, 'partner.admin');
  const manager = demoActor(tenant, 'manager');
  await tx.query(
    `with rdr as (select id from cases.deflectors where alias = 'verifi_rdr'),
     mid_owner as (
       select null::bigint as merchant_id, d.id as mid_id, d.merchant_id as of_merchant
       from cases.mids d join cases.mid_deflectors x on x.mid_id = d.id and x.deflector_id = (select id from rdr)
       where d.tenant_id = $1 and x.status_id in (2, 3)
         and (d.merchant_id = any($2::bigint[]) or (hashint8extended(d.id, 4401) & 2147483647) % 3 = 0)
     ),
     merchant_owner as (
       select m.id as merchant_id, null::bigint as mid_id, m.id as of_merchant
       from cases.merchants m
       where m.tenant_id = $1 and (m.id = any($2::bigint[]) or (hashint8extended(m.id, 4402) & 2147483647) % 3 = 0)
         and exists (select 1 from cases.mids d join cases.mid_deflectors x on x.mid_id = d.id
                     and x.deflector_id = (select id from rdr) where d.merchant_id = m.id and x.status_id in (2, 3))
     ),
     owner as (
       select o.*, hashint8extended(coalesce(o.mid_id, o.merchant_id), 4403) & 2147483647 as h, m.parent_id
       from (select * from mid_owner union all select * from merchant_owner) o
       join cases.merchants m on m.id = o.of_merchant
     ),
     rule as (
       select * from unnest($3::int[], $4::int[], $5::int[], $6::int[], $7::text[]) as r(s, position, subject_id, operator_id, value)
     )
     insert into cases.rdr_rules (tenant_id, merchant_id, mid_id, position, subject_id, operator_id, value, updated_by, date_updated)
     select $1, o.merchant_id, o.mid_id, r.position, r.subject_id, r.operator_id,
       replace(r.value, '{since}', to_char(current_date - 90, 'YYYY-MM-DD')),
       case when o.of_merchant = $8::bigint then $9 when o.parent_id = $10::bigint or o.of_merchant = $10::bigint then $11 else $12 end,
       now() - make_interval(days => (1 + o.h % 60)::int, mins => (o.h % 600)::int)
     from owner o join rule r on r.s = 1 + o.h % $13::int
     order by o.merchant_id nulls first, o.mid_id, r.position`,
    [
      tenant.id,
      INTAKE_MERCHANTS.map((k) => demoMerchantId(tenant, k)),
      sets.map((c) => c.s),
      sets.map((c) => c.position),
      sets.map((c) => c.subject),
      sets.map((c) => c.operator),
      sets.map((c) => c.value),
      demoMerchantId(tenant, 'merchantA1'),
      merchantAdmin.username,
      demoMerchantId(tenant, 'partnerA'),
      partnerAdmin.username,
      manager.username,
      RULE_SETS.length,
    ],
  );
}
