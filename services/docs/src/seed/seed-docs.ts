import { DEMO_TENANTS } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import { PgDocumentStore, type DocumentStore } from '../store/document-store';
import { representmentPdf, type RepresentmentFacts } from './representment-pdf';
import { seedIssuerDocFiles, seedTemplates } from './seed-templates';

/**
 * Statuses whose cases carry a representment (the case service's
 * properties.is_doc_available): DocUploaded, DocCompiling, DocCompiled,
 * TransportReady, TransportProcessing, TransportCompleted.
 */
const DOC_STATUS_IDS = [3, 6, 7, 8, 9, 10] as const;
/** Files of completed cases are archived a year after completion (the retention rule of the demo). */
const RETENTION_DAYS = 365;
/** The demo store keeps the newest files per tenant; older ones are archived (bounds the large benchmark seed). */
const LIVE_FILES_PER_TENANT = 2000;

const BATCH = 50;

/**
 * The representments of the demo cases (design §6): one per case with a
 * document, derived from the case so the same cases give the same rows and
 * bytes. Reads the case service's tables (the seed runs after it, in the same
 * database); writes only the docs schema.
 */
export async function seedDocs(db: Db, store: DocumentStore = new PgDocumentStore(db)): Promise<void> {
  for (const tenant of DEMO_TENANTS) {
    await db.transaction(async (tx) => {
      await insertRows(tx, tenant.id);
      await storeFiles(tx, store, tenant.id);
      await seedTemplates(tx, store, tenant);
      await seedIssuerDocFiles(tx, store, tenant);
    });
  }
  await db.query('analyze docs.representments');
}

/** Metadata of every representment; archived when past retention or beyond the live cap. */
async function insertRows(tx: Queryable, tenant: string) {
  await tx.query(
    `with d as (
       select c.id, c.tenant_id, c.merchant_id, c.case_no, c.status_id, c.date_post, c.date_due, c.date_completed,
         c.assigned_username, hashint8extended(c.id, 4242) as h,
         row_number() over (order by c.date_post desc, c.id desc) as rn
       from cases.cases c where c.tenant_id = $1 and c.status_id = any($2::int[])
     )
     insert into docs.representments (tenant_id, case_id, merchant_id, file_key, filename, content_type, size,
       case_comments, created_by, date_created, is_archived, archived_at)
     select d.tenant_id, d.id, d.merchant_id,
       'representments/' || d.tenant_id || '/' || d.id || '/representment-' || d.case_no || '.pdf',
       'Representment-' || d.case_no || '.pdf', 'application/pdf',
       120000 + ((d.h >> 8) & 1048575)::int,
       (array[
         'Customer signed for delivery; proof of delivery and order confirmation attached.',
         'Refund policy was accepted at checkout; screenshots and the customer''s emails attached.',
         'Transaction authenticated with 3-D Secure; authentication record and AVS/CVV match attached.',
         'Service was used after the dispute date; account login history attached.',
         null
       ])[1 + ((d.h >> 4) & 3)::int + case when (d.h & 7) = 0 then 1 else 0 end],
       coalesce(d.assigned_username, case when (d.h & 1) = 0 then 'merchant.admin' else 'agent' end),
       least(now(), d.date_post::timestamp + make_interval(days => 2 + ((d.h >> 24) & 7)::int, mins => ((d.h >> 32) & 1023)::int)),
       (d.rn > $3 or (d.status_id = 10 and d.date_completed < current_date - $4::int)),
       case when d.rn > $3 or (d.status_id = 10 and d.date_completed < current_date - $4::int)
         then greatest(d.date_completed, d.date_post)::timestamp + interval '${RETENTION_DAYS} days' end
     from d`,
    [tenant, DOC_STATUS_IDS, LIVE_FILES_PER_TENANT, RETENTION_DAYS],
  );
}

/** A PDF for every live representment, with its real size. */
async function storeFiles(tx: Queryable, store: DocumentStore, tenant: string) {
  const { rows } = await tx.query<RepresentmentFacts & { id: number; file_key: string }>(
    `select r.id, r.file_key, r.case_comments, r.created_by,
       to_char(r.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created,
       c.id as case_id, c.case_no, c.order_id, m.business_name as merchant_name, mi.mid, ct.name as card_type,
       rc.code as reason_code, rc.description as reason_description, c.dispute_amt, cur.code as currency,
       to_char(c.date_post, 'YYYY-MM-DD') as date_post, to_char(c.date_trans, 'YYYY-MM-DD') as date_trans,
       c.cc_last_four, c.arn
     from docs.representments r
     join cases.cases c on c.id = r.case_id
     join cases.merchants m on m.id = c.merchant_id
     join cases.mids mi on mi.id = c.mid_id
     join cases.card_types ct on ct.id = c.card_type_id
     join cases.reason_codes rc on rc.id = c.reason_code_id
     join cases.currencies cur on cur.id = c.dispute_currency_id
     where r.tenant_id = $1 and not r.is_archived order by r.id`,
    [tenant],
  );
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH).map((r) => ({ row: r, pdf: representmentPdf(r) }));
    for (const { row, pdf } of batch) await store.put(tx, tenant, row.file_key, pdf, 'application/pdf');
    await tx.query(
      `update docs.representments r set size = u.size from unnest($1::bigint[], $2::int[]) as u(id, size) where r.id = u.id`,
      [batch.map((b) => b.row.id), batch.map((b) => b.pdf.length)],
    );
  }
}
