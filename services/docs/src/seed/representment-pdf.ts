import { simplePdf, type PdfLine } from './simple-pdf';

/** The case facts a representment letter states. */
export interface RepresentmentFacts {
  case_id: number;
  case_no: string;
  order_id: string | null;
  merchant_name: string;
  mid: string;
  card_type: string;
  reason_code: string;
  reason_description: string;
  dispute_amt: number;
  currency: string;
  date_post: string;
  date_trans: string | null;
  cc_last_four: string | null;
  arn: string | null;
  case_comments: string | null;
  created_by: string | null;
  date_created: string;
}

const money = (n: number) =>
  Number(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A one-page rebuttal letter for a demo case: what a reviewer opens from QC or admin review. */
export function representmentPdf(f: RepresentmentFacts): Buffer {
  const lines: PdfLine[] = [
    { text: f.merchant_name, bold: true, size: 13 },
    { text: `MID ${f.mid}` },
    { text: 'Case details', bold: true, gap: 14 },
    { text: `Case number: ${f.case_no}    CB ID: ${f.case_id}` },
    {
      text: `Card: ${f.card_type}${f.cc_last_four ? ` ending ${f.cc_last_four}` : ''}    ARN: ${f.arn ?? 'n/a'}`,
    },
    { text: `Reason code: ${f.reason_code} - ${f.reason_description}` },
    { text: `Disputed amount: ${money(f.dispute_amt)} ${f.currency}    Order ID: ${f.order_id ?? 'n/a'}` },
    { text: `Transaction date: ${f.date_trans ?? 'n/a'}    Chargeback posted: ${f.date_post}` },
    { text: 'Rebuttal', bold: true, gap: 14 },
    {
      text:
        `${f.merchant_name} disputes this chargeback. The cardholder authorised the transaction and received ` +
        'the goods or services as described. The enclosed evidence shows that the dispute reason does not apply, ' +
        'and we request that the chargeback be reversed in our favour.',
    },
    { text: 'Case comments', bold: true, gap: 14 },
    { text: f.case_comments ?? 'None.' },
    { text: 'Enclosed evidence', bold: true, gap: 14 },
    { text: '1. Order confirmation and invoice' },
    { text: '2. Proof of delivery or service usage' },
    { text: '3. Customer correspondence and accepted terms' },
    {
      text: `Prepared by ${f.created_by ?? 'the merchant'} on ${f.date_created.slice(0, 10)}.`,
      size: 9,
      gap: 24,
    },
  ];
  return simplePdf(`Representment - Case ${f.case_no}`, lines, {
    author: f.merchant_name,
    created: new Date(f.date_created),
  });
}
