import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { SALE_TYPES, type BuilderCase } from '@portal/contracts';

/**
 * The case summary the builder adds in front of the documents (spec 2 §2.7
 * step 4): the case facts, customer, product, sales method and every answered
 * field of the builder pages, one labelled line each, wrapped to the page. A
 * select answer of a lookup prints its name (`labels`, by field id; made by
 * case-summary.ts), never its id. Only WinAnsi text can be drawn with the
 * standard fonts, so other characters are replaced.
 */
const PAGE = { width: 612, height: 792, margin: 54 };
const SIZE = 10;
const LINE = 14;

const winAnsi = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }
  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }
  private room(lines: number) {
    if (this.y - lines * LINE < PAGE.margin) this.newPage();
  }
  heading(text: string, size = 14) {
    this.room(2);
    this.y -= LINE / 2;
    this.page.drawText(winAnsi(text), {
      x: PAGE.margin,
      y: this.y,
      size,
      font: this.bold,
      color: rgb(0.1, 0.2, 0.4),
    });
    this.y -= size + 6;
  }
  line(label: string, value: string) {
    const width = PAGE.width - 2 * PAGE.margin - 170;
    const words = winAnsi(value).split(/\s+/);
    const lines: string[] = [];
    let current = '';
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (this.font.widthOfTextAtSize(next, SIZE) > width && current) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    lines.push(current);
    this.room(lines.length);
    this.page.drawText(winAnsi(label), { x: PAGE.margin, y: this.y, size: SIZE, font: this.bold });
    for (const l of lines) {
      this.page.drawText(l, { x: PAGE.margin + 170, y: this.y, size: SIZE, font: this.font });
      this.y -= LINE;
    }
  }
}

/**
 * The builder's case summary. Made twice, for the preview and for the submission, and both must be
 * the same bytes (issue 34: the packet previewed is the packet sent, and warnings are accepted for its
 * hash): nothing in it depends on the time it is made. It is dated by the answers' last save.
 */
export async function caseSummaryPdf(
  pages: readonly BuilderCase[],
  facts: {
    merchant: string;
    preparedBy: string | null;
    /** The printed names of lookup answers, by field id; a field without one prints its value. */
    labels: ReadonlyMap<number, string>;
  },
): Promise<{ bytes: Uint8Array; pages: number }> {
  const first = pages[0]!;
  const doc = await PDFDocument.create();
  doc.setTitle(`Case Summary ${first.case_no}`);
  doc.setProducer('Chargeback portal');
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  const value = (id: number) =>
    pages.flatMap((p) => p.groups.flatMap((g) => g.fields)).find((f) => f.id === id)?.value ?? '';
  w.heading('Case Summary', 18);
  w.line('Merchant', facts.merchant);
  w.line('Case Number', first.case_no);
  w.line('Reason Code', `${first.reason_code} - ${first.reason_code_description}`);
  w.line('Card Number', first.cc_no ?? '');
  w.line('Dispute Amount', `${first.dispute_amt.toFixed(2)} ${first.dispute_currency}`);
  w.line('Transaction Date', first.date_trans?.slice(0, 10) ?? '');
  w.line('Customer', `${value(11)} ${value(12)}`.trim());
  w.line('Product', first.product ? first.product.name.split(':')[0]! : '');
  w.line('Sales Method', SALE_TYPES.find((s) => s.id === first.sale_type)?.name ?? '');
  const saved = pages
    .map((p) => p.last_updated?.timestamp)
    .filter((t): t is string => !!t)
    .sort()
    .at(-1);
  const at = saved ? `${new Date(saved).toISOString().slice(0, 16).replace('T', ' ')} UTC ` : '';
  w.line('Prepared', `${at}by ${facts.preparedBy ?? ''}`);
  for (const p of pages) {
    for (const g of p.groups) {
      const answered = g.fields.filter((f) => f.value !== null && f.value !== '');
      if (!answered.length) continue;
      w.heading(g.name, 12);
      for (const f of answered) w.line(f.label, facts.labels.get(f.id) ?? f.value!);
    }
  }
  const bytes = await doc.save();
  return { bytes, pages: doc.getPageCount() };
}
