import { DEMO_USERS, demoUserId, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { seededVerdictSql } from './win-odds-outcomes';

/** Case ids of the seed: tenant number * 10,000,000 + row number (the sequence starts above them). */
const CASE_ID_BLOCK = 10_000_000;

/**
 * Generates the cases of one tenant in one INSERT ... SELECT over
 * generate_series: every value comes from hashing the row number, so the same
 * scale gives the same cases (dates relative to the seed day). 18 months of
 * post dates; due dates 20/30/45 days after posting by cycle, so the open
 * cases are the recent ones and some expire within 72 hours.
 */
export async function seedCaseRows(tx: Queryable, tenant: DemoTenant, count: number): Promise<void> {
  const staff = DEMO_USERS.filter((u) => u.role === 'cb911_manager' || u.role === 'cb911_agent');
  const [manager, agent] = staff;
  if (!manager || !agent) throw new Error('DEMO_USERS needs a cb911_manager and a cb911_agent');
  await tx.query(
    `insert into cases.cases (id, tenant_id, merchant_id, mid_id, descriptor_id, case_no, order_id, cycle_id, card_type_id,
       cc_bin, cc_last_four, reason_code_id, is_fraud, date_post, date_due, date_trans, date_completed, date_created,
       dispute_amt, dispute_currency_id, trans_amt, trans_currency_id, status_id, status_group_id, verdict_id, processor_id,
       processor_invoice_id, source_id, is_credit, is_guaranteed, arn, comments, assigned_user_id, assigned_fname,
       assigned_lname, assigned_username)
     with m as (
       select (row_number() over (order by d.id) - 1)::int as rn, d.id, d.merchant_id, d.processor_id,
         (select min(x.id) from cases.descriptors x where x.mid_id = d.id) as descriptor_id
       from cases.mids d where d.tenant_id = $1
     ),
     mc as (select count(*)::int as n from m),
     rc as (select (row_number() over (partition by card_type_id order by id) - 1)::int as rn, id, card_type_id, is_fraud from cases.reason_codes),
     rcc as (select card_type_id, count(*)::int as n from cases.reason_codes group by card_type_id),
     h as (
       select g, hashint8extended(g::bigint, $2::bigint * 7 + 1) as x1, hashint8extended(g::bigint, $2::bigint * 7 + 2) as x2,
         hashint8extended(g::bigint, $2::bigint * 7 + 3) as x3
       from generate_series(1, $3::int) g
     ),
     a as (
       select h.*,
         case when ((x1 >> 20) & 1023) < 563 then 1 when ((x1 >> 20) & 1023) < 870 then 2 when ((x1 >> 20) & 1023) < 972 then 3 else 4 end as ct,
         case when (x2 & 1023) < 778 then 1 when (x2 & 1023) < 921 then 2 else 9 end as cy,
         current_date - (((x2 >> 10) & 65535) % 548)::int as post,
         ((x2 >> 32) & 1023) as r,
         ((x3 >> 16) & 65535) / 65535.0 as u
       from h
     ),
     b as (
       select a.*, post + case cy when 1 then 30 when 2 then 45 else 20 end as due from a
     ),
     c as (
       select b.*,
         case when due < current_date then
           case when r < 560 then 10 when r < 760 then 4 else 5 end
         else
           case when r < 420 then 1 when r < 560 then 2 when r < 640 then 3 when r < 720 then 6 when r < 780 then 7
                when r < 840 then 8 when r < 900 then 9 else 1 end
         end as st,
         round((5 * power(400, u))::numeric, 2) as amt,
         case when ((x3 >> 34) & 1023) < 717 then 1 when ((x3 >> 34) & 1023) < 840 then 2 when ((x3 >> 34) & 1023) < 922 then 3
              when ((x3 >> 34) & 1023) < 983 then 4 else 5 end as cur,
         ((x1 >> 5) & 15) = 0 as assigned
       from b
     )
     select $2::bigint * ${CASE_ID_BLOCK} + c.g, $1, m.merchant_id, m.id, m.descriptor_id,
       to_char(c.post, 'YYMMDD') || $2 || lpad(c.g::text, 7, '0'),
       'ORD-' || (100000 + ((c.x3 >> 8) & 16777215))::text,
       c.cy, c.ct,
       case c.ct when 1 then '4' || lpad(((c.x1 >> 48) & 32767)::text, 5, '0')
                 when 2 then '5' || (1 + ((c.x1 >> 48) & 3))::text || lpad(((c.x1 >> 52) & 2047)::text, 4, '0')
                 when 3 then '37' || lpad(((c.x1 >> 48) & 8191)::text, 4, '0')
                 else '6011' || lpad(((c.x1 >> 48) & 63)::text, 2, '0') end,
       lpad((((c.x2 >> 44) & 16383) % 10000)::text, 4, '0'),
       rc.id, rc.is_fraud, c.post, c.due,
       c.post - (3 + ((c.x2 >> 26) & 31))::int,
       case c.st when 10 then c.due - ((c.x3 >> 10) & 15)::int when 4 then c.post + ((c.x3 >> 10) & 7)::int when 5 then c.due end,
       (c.post + 1)::timestamp + make_interval(mins => ((c.x3 & 1023))::int),
       c.amt, c.cur,
       case when ((c.x3 >> 44) & 15) < 2 then round(c.amt * 1.25, 2) else c.amt end, c.cur,
       c.st, s.status_group_id,
       -- A represented case's verdict depends on its facts and evidence (win-odds-outcomes.ts).
       case when c.st = 10 then ${seededVerdictSql({ caseId: `($2::bigint * ${CASE_ID_BLOCK} + c.g)`, reasonCodeId: 'rc.id', isFraud: 'rc.is_fraud', cardTypeId: 'c.ct', amount: 'c.amt' })}
            when c.st in (4, 5) then 5 when c.st = 1 then 3 else 6 end,
       m.processor_id,
       case when ((c.x3 >> 40) & 7) < 3 then 'INV-' || lpad(((c.x3 >> 20) & 1048575)::text, 7, '0') end,
       1 + ((c.x3 >> 50) & 3)::int,
       ((c.x3 >> 52) & 31) = 0, ((c.x3 >> 57) & 31) = 1,
       '24' || lpad(((c.x2 & 2147483647) % 1000000000)::text, 9, '0') || lpad(c.g::text, 12, '0'),
       case when ((c.x2 >> 40) & 63) = 0 then 'Customer contacted support before the dispute.' end,
       case when c.assigned then (case when c.g % 2 = 0 then $4::bigint else $5::bigint end) end,
       case when c.assigned then (case when c.g % 2 = 0 then $6 else $7 end) end,
       case when c.assigned then (case when c.g % 2 = 0 then $8 else $9 end) end,
       case when c.assigned then (case when c.g % 2 = 0 then $10 else $11 end) end
     from c
     cross join mc
     join m on m.rn = (c.x1 & 2147483647) % mc.n
     join rcc on rcc.card_type_id = c.ct
     join rc on rc.card_type_id = c.ct and rc.rn = ((c.x1 >> 30) & 65535) % rcc.n
     join cases.statuses s on s.id = c.st`,
    [
      tenant.id,
      tenant.number,
      count,
      demoUserId(tenant, manager),
      demoUserId(tenant, agent),
      manager.fname,
      agent.fname,
      manager.lname,
      agent.lname,
      manager.username,
      agent.username,
    ],
  );
  // Flags on ~3% of cases, with the flag row the case points at.
  await tx.query(
    `with f as (
       insert into cases.case_flags (tenant_id, case_id, is_flagged, comment, created_at)
       select tenant_id, id, true, 'Needs a second look: ' || order_id, date_created + interval '1 day'
       from cases.cases where tenant_id = $1 and (hashint8extended(id, 99) & 31) = 0
       returning id, case_id
     )
     update cases.cases c set flag_id = f.id, is_flagged = true from f where c.id = f.case_id`,
    [tenant.id],
  );
  // History: the intake of every fourth case, the assignments and the flags.
  await tx.query(
    `insert into cases.case_history (tenant_id, case_id, created_at, user_id, username, actor_id, actor_username, action)
     select tenant_id, id, date_created, null, 'system', null, 'system', 'Case received from the acquirer'
     from cases.cases where tenant_id = $1 and id % 4 = 0
     union all
     select tenant_id, id, date_created + interval '2 hours', $2::bigint, $3, $2::bigint, $3,
       'Assigned to ' || assigned_fname || ' ' || assigned_lname || ' (' || assigned_username || ')'
     from cases.cases where tenant_id = $1 and assigned_user_id is not null
     union all
     select c.tenant_id, c.id, f.created_at, null, 'system', null, 'system', 'Flagged: ' || f.comment
     from cases.cases c join cases.case_flags f on f.id = c.flag_id where c.tenant_id = $1`,
    [tenant.id, demoUserId(tenant, manager), manager.username],
  );
}
