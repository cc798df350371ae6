import type { DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Issuer document ids of the seed: tenant number * 10,000,000 + row number. */
const ISSUER_DOC_ID_BLOCK = 10_000_000;
/** Demo issuer documents per tenant: the newest cases of merchants with feature 1, one or two each. */
const ISSUER_DOCS_PER_TENANT = 300;

/**
 * The demo issuer documents (spec 2 §3 case.issuer_docs): for merchants with
 * feature 1 (issuer documents), the newest cases get
 * one document (every fourth a second one), dated a day or two after posting.
 * The docs seed stores a file under each id (docs.issuer_docs).
 */
export async function seedIssuerDocs(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await tx.query(
    `with c as (
       select c.id, c.date_post, row_number() over (order by c.date_post desc, c.id desc) as rn
       from cases.cases c
       where c.tenant_id = $1
         and exists (select 1 from cases.merchant_features f where f.merchant_id = c.merchant_id and f.feature_id = 1)
       order by c.date_post desc, c.id desc limit $2
     ),
     d as (
       select c.id as case_id, c.date_post, c.rn, n from c cross join generate_series(1, 2) n
       where n = 1 or c.rn % 4 = 0
     )
     insert into cases.issuer_docs (id, tenant_id, case_id, date_created)
     select $3::bigint + row_number() over (order by d.rn, d.n), $1, d.case_id,
       least(now(), d.date_post::timestamp + make_interval(days => d.n, hours => 9 + (d.rn % 8)::int))
     from d`,
    [tenant.id, ISSUER_DOCS_PER_TENANT, tenant.number * ISSUER_DOC_ID_BLOCK],
  );
}
