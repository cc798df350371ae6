import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import {
  DEMO_MERCHANTS,
  demoMerchantId,
  GENERIC_DOCUMENT_TYPE_ID,
  type DemoMerchantKey,
  type DemoTenant,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { DocumentStore } from '../store/document-store';
import { insertTemplate } from '../templates/template-repository';
import { flatJpeg } from './demo-jpeg';
import { simplePdf } from './simple-pdf';

/**
 * Demo templates and issuer documents (design §6). The seed has no object
 * store (it runs once per database, the store may be a fresh DATA_DIR or a
 * bucket), so the files go to docs.objects under object-store keys and the
 * docs service copies them into the object store when it starts
 * (sync-objects.ts). Keys are deterministic (a uuid made of the row's number).
 */
const uuidOf = (kind: number, n: number) =>
  `00000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`;

/** A PDF of `pages` pages of text (pdf-lib, standard fonts). */
export async function textPdf(title: string, pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('Chargeback Portal');
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  pages.forEach((lines, i) => {
    const page = doc.addPage([612, 792]);
    page.drawRectangle({ x: 0, y: 764, width: 612, height: 28, color: rgb(0.16, 0.33, 0.62) });
    page.drawText(title, { x: 72, y: 720, size: 18, font: bold });
    lines.forEach((line, j) => page.drawText(line, { x: 72, y: 690 - j * 18, size: 11, font }));
    page.drawText(`Page ${i + 1} of ${pages.length}`, {
      x: 72,
      y: 48,
      size: 9,
      font,
      color: rgb(0.4, 0.4, 0.4),
    });
  });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

interface DemoTemplate {
  name: string;
  file: string;
  documentTypeId: number;
  build: (
    merchant: string,
  ) => Promise<{ bytes: Buffer; type: 'application/pdf' | 'image/jpeg'; pages: number }>;
}

const TEMPLATES: DemoTemplate[] = [
  {
    name: 'Refund Policy',
    file: 'refund-policy.pdf',
    documentTypeId: 5,
    build: async (m) => ({
      type: 'application/pdf',
      pages: 2,
      bytes: await textPdf(`${m}: Refund Policy`, [
        [
          'Refunds are issued to the original payment method within 14 days of a return.',
          'Customers accept this policy at checkout.',
        ],
        [
          'Digital goods are not refundable once downloaded.',
          'Contact support before opening a dispute with the card issuer.',
        ],
      ]),
    }),
  },
  {
    name: 'Terms and Conditions',
    file: 'terms-and-conditions.pdf',
    documentTypeId: 4,
    build: async (m) => ({
      type: 'application/pdf',
      pages: 3,
      bytes: await textPdf(`${m}: Terms and Conditions`, [
        ['1. Orders', 'An order is accepted when the confirmation e-mail is sent.'],
        ['2. Delivery', 'Goods ship within 2 business days with tracking.'],
        ['3. Disputes', 'Billing questions go to support first; we answer within one business day.'],
      ]),
    }),
  },
  {
    name: 'Signed Delivery Slip',
    file: 'signed-delivery-slip.jpg',
    documentTypeId: GENERIC_DOCUMENT_TYPE_ID,
    build: async () => ({ type: 'image/jpeg', pages: 1, bytes: flatJpeg(320, 200, 240) }),
  },
];

/** Merchants with demo templates: every demo merchant but merchantA2, whose library shows the empty text. */
const WITHOUT_TEMPLATES: readonly DemoMerchantKey[] = ['merchantA2'];

export async function seedTemplates(tx: Queryable, store: DocumentStore, tenant: DemoTenant) {
  const { rows } = await tx.query<{ id: number; business_name: string }>(
    `select id, business_name from cases.merchants where tenant_id = $1 and id = any($2::bigint[])`,
    [tenant.id, DEMO_MERCHANTS.map((m) => demoMerchantId(tenant, m.key))],
  );
  const names = new Map(rows.map((r) => [Number(r.id), r.business_name]));
  let n = 0;
  for (const merchant of DEMO_MERCHANTS) {
    const merchantId = demoMerchantId(tenant, merchant.key);
    if (WITHOUT_TEMPLATES.includes(merchant.key)) continue;
    const name = names.get(merchantId) ?? merchant.name;
    for (const [i, t] of TEMPLATES.entries()) {
      n++;
      const key = `${tenant.id}/templates/${uuidOf(1, tenant.number * 100_000 + n)}/${t.file}`;
      const file = await t.build(name);
      await store.put(tx, tenant.id, key, file.bytes, file.type);
      await insertTemplate(tx, {
        tenant: tenant.id,
        merchantId,
        name: t.name,
        fileName: t.file,
        s3Key: key,
        contentType: file.type,
        size: file.bytes.length,
        pages: file.pages,
        documentTypeId: t.documentTypeId,
        midIds: [],
        createdBy: 'manager',
        createdAt: new Date(Date.UTC(2025, 0, 1 + i, 9)),
      });
    }
  }
}

/**
 * The files of the case service's demo issuer documents (cases.issuer_docs),
 * under the same ids: a one-page issuer letter per document.
 */
export async function seedIssuerDocFiles(tx: Queryable, store: DocumentStore, tenant: DemoTenant) {
  const { rows } = await tx.query<{
    id: string;
    case_id: string;
    case_no: string;
    arn: string | null;
    date_created: string;
    merchant_name: string;
  }>(
    `select i.id, i.case_id, c.case_no, c.arn, m.business_name as merchant_name,
       to_char(i.date_created at time zone 'UTC', 'YYYY-MM-DD') as date_created
     from cases.issuer_docs i join cases.cases c on c.id = i.case_id join cases.merchants m on m.id = c.merchant_id
     where i.tenant_id = $1 order by i.id`,
    [tenant.id],
  );
  for (const r of rows) {
    const id = Number(r.id);
    const filename = `issuer-doc-${r.case_no}-${id}.pdf`;
    const key = `${tenant.id}/issuer-docs/${uuidOf(2, id)}/${filename}`;
    const pdf = simplePdf('Issuer Document', [
      { text: 'Chargeback documentation from the card issuer', bold: true, size: 13 },
      { text: `Merchant: ${r.merchant_name}`, gap: 8 },
      { text: `Case number: ${r.case_no}` },
      { text: `ARN: ${r.arn ?? 'n/a'}` },
      { text: `Received: ${r.date_created}` },
      {
        text: 'The cardholder states the transaction was not recognised. The issuer provides the cardholder letter and the transaction details for review.',
        gap: 12,
      },
    ]);
    await store.put(tx, tenant.id, key, pdf, 'application/pdf');
    await tx.query(
      `insert into docs.issuer_docs (id, tenant_id, case_id, file_key, filename, content_type, size, created_at)
       values ($1, $2, $3, $4, $5, 'application/pdf', $6, $7::date)`,
      [id, tenant.id, Number(r.case_id), key, filename, pdf.length, r.date_created],
    );
  }
}
