import type { DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Days of sales before the seed day: the 18 months of post dates plus the longest post-to-transaction span. */
const TRANSACTION_DAYS = 600;

const ISSUERS = [
  'Chase Bank',
  'Bank of America',
  'Wells Fargo',
  'Citibank',
  'Capital One',
  'US Bank',
  'Barclays',
  'HSBC',
  'Deutsche Bank',
  'BNP Paribas',
  'Royal Bank of Canada',
  'Commonwealth Bank',
];

/**
 * Report data of one tenant (issue 18), after its cases and alerts: the issuer of every BIN the cases
 * use (70% US issuers, so US merchants' chargebacks are mostly domestic), repeat customers (about one
 * case in sixteen reuses the card of an earlier case of the same merchant), daily sales per MID
 * consistent with the chargebacks, and the chargeback rollup rebuilt with the issuer countries.
 *
 * Sales: each MID sells every day (a base of 5 to 44 Visa sales in US dollars), and every group of
 * chargebacks of a transaction day, currency and card type stands for k sales of that kind, k fixed per
 * MID between 40 and 239, so MIDs range from healthy to high risk (chargeback ratio about 0.4% to 2.5%).
 */
export async function seedTransactions(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await tx.query(
    `insert into cases.issuer_bins (bin, issuer_name, country_id)
     select bin, ($2::text[])[1 + (hashtext(bin) & 2147483647) % cardinality($2::text[])],
       case when (hashtext(bin || 'c') & 1023) < 717 then 1 else 2 + (hashtext(bin || 'k') & 2147483647) % 9 end
     from (select distinct cc_bin as bin from cases.cases where tenant_id = $1 and cc_bin is not null) b
     on conflict (bin) do nothing`,
    [tenant.id, ISSUERS],
  );
  await tx.query(
    `with p as (
       select id, lag(cc_bin) over w as bin, lag(cc_last_four) over w as last_four
       from cases.cases where tenant_id = $1
       window w as (partition by merchant_id, card_type_id order by id)
     )
     update cases.cases c set cc_bin = p.bin, cc_last_four = p.last_four
     from p where p.id = c.id and p.bin is not null and (hashint8extended(c.id, 77) & 15) = 0`,
    [tenant.id],
  );
  await tx.query(
    `insert into cases.transactions_daily (tenant_id, day, merchant_id, mid_id, currency_id, card_type_id, processor_id,
       trans_count, trans_amount, domestic_count, customers, repeat_customers)
     with mk as (
       select id, merchant_id, coalesce(processor_id, 0) as processor_id,
         40 + (hashint8extended(id, 5) & 2147483647) % 200 as k, 5 + (hashint8extended(id, 6) & 2147483647) % 40 as base
       from cases.mids where tenant_id = $1
     ),
     sales as (
       select mk.id as mid_id, mk.merchant_id, mk.processor_id, d::date as day, 1 as currency_id, 1::smallint as card_type_id,
         mk.base as n, mk.base * (20 + (hashint8extended(mk.id * 1000 + (d::date - date '2000-01-01'), 7) & 63)) as amount
       from mk cross join generate_series(current_date - $2::int, current_date, interval '1 day') d
       union all
       select mk.id, mk.merchant_id, mk.processor_id, c.date_trans, c.dispute_currency_id, c.card_type_id,
         count(*) * mk.k, sum(coalesce(c.trans_amt, c.dispute_amt)) * mk.k
       from cases.cases c join mk on mk.id = c.mid_id
       where c.tenant_id = $1 and c.date_trans is not null
       group by 1, 2, 3, 4, 5, 6, mk.k
     ),
     g as (
       select mid_id, merchant_id, processor_id, day, currency_id, card_type_id, sum(n)::int as n, round(sum(amount), 2) as amount
       from sales group by 1, 2, 3, 4, 5, 6
     )
     select $1, g.day, g.merchant_id, g.mid_id, g.currency_id, g.card_type_id, g.processor_id, g.n, g.amount,
       (g.n * (70 + (hashint8extended(g.mid_id, 8) & 15) + 10) / 100)::int,
       g.n - (g.n * (8 + (hashint8extended(g.mid_id, 9) & 7)) / 100)::int,
       (g.n * (8 + (hashint8extended(g.mid_id, 9) & 7)) / 100 / 2)::int
     from g`,
    [tenant.id, TRANSACTION_DAYS],
  );
  await tx.query('select cases.report_daily_rebuild($1)', [tenant.id]);
  await tx.query('analyze cases.report_daily');
  await tx.query('analyze cases.transactions_daily');
}
