import type { CaseRow } from '@portal/contracts';
import { cellText, type CaseColumn } from './case-columns';
import { cutWords } from '../../../lib/format-case';

/** The reason code message is cut to this many words in the PDF (spec 2 §2.1, §9). */
const PDF_MESSAGE_WORDS = 10;
export const MESSAGE_LABEL = 'Reason Code Message';

export interface PdfTable {
  head: string[];
  body: string[][];
  /** Per column: money right-aligned, as on screen. */
  align: ('left' | 'right')[];
  /** Index of the Reason Code Message column (it gets a fixed width), or null. */
  messageColumn: number | null;
}

/** The reason code message as the PDF shows it: at most 10 words, then '...'. */
export function pdfReasonMessage(row: Pick<CaseRow, 'reason_code_message'>): string {
  return cutWords((row.reason_code_message ?? '').trim(), PDF_MESSAGE_WORDS);
}

/**
 * The PDF's table: the exportable columns with the texts the grid shows
 * (cellText), plus a 'Reason Code Message' column right after Reason Code.
 * A column of its own keeps the codes short and scannable while the message
 * wraps in its own cell; without a visible Reason Code the message has
 * nothing to explain and is left out.
 */
export function pdfTable(rows: CaseRow[], columns: CaseColumn[]): PdfTable {
  const cols: { label: string; align: 'left' | 'right'; text: (row: CaseRow) => string }[] = [];
  for (const col of columns) {
    cols.push({
      label: col.label,
      align: col.kind === 'money' ? 'right' : 'left',
      text: (r) => cellText(r, col),
    });
    if (col.key === 'reason_code') cols.push({ label: MESSAGE_LABEL, align: 'left', text: pdfReasonMessage });
  }
  const message = cols.findIndex((c) => c.label === MESSAGE_LABEL);
  return {
    head: cols.map((c) => c.label),
    body: rows.map((r) => cols.map((c) => c.text(r))),
    align: cols.map((c) => c.align),
    messageColumn: message < 0 ? null : message,
  };
}

const FONT_SIZE = 6.5;
const CELL_PADDING = 2;
const MESSAGE_WIDTH = 96;
const MARGIN = 24;
/** Landscape page widths (pt), smallest first: the first one the table fits. */
const FORMATS = [
  ['letter', 792],
  ['legal', 1008],
  ['tabloid', 1224],
] as const;

interface TextMeasure {
  setFont(name: string, style: string): unknown;
  setFontSize(size: number): unknown;
  getTextWidth(text: string): number;
}

/**
 * The width the table needs without breaking a value: each column as wide as
 * its longest cell (headers may wrap between words), the message column fixed.
 */
export function tableWidth(doc: TextMeasure, table: PdfTable): number {
  doc.setFontSize(FONT_SIZE);
  return table.head.reduce((total, label, i) => {
    if (i === table.messageColumn) return total + MESSAGE_WIDTH;
    doc.setFont('helvetica', 'bold');
    let w = Math.max(...label.split(/\s+/).map((word) => doc.getTextWidth(word)));
    doc.setFont('helvetica', 'normal');
    for (const row of table.body) w = Math.max(w, doc.getTextWidth(row[i] ?? ''));
    return total + w + 2 * CELL_PADDING + 1;
  }, 0);
}

/** The smallest landscape format the table fits (the widest one otherwise: its cells wrap). */
export function pageFormat(needed: number): (typeof FORMATS)[number][0] {
  return (FORMATS.find(([, width]) => needed <= width - 2 * MARGIN) ?? FORMATS[FORMATS.length - 1]!)[0];
}

/**
 * Downloads the rows as a landscape PDF. jsPDF and its table plugin
 * (~130 KB gzip) load here, on first use, never with the list. Text is left
 * uncompressed (jsPDF's default), so the file stays searchable by tools.
 */
export async function downloadRowsPdf(
  title: string,
  rows: CaseRow[],
  columns: CaseColumn[],
  fileName: string,
): Promise<void> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const table = pdfTable(rows, columns);
  const format = pageFormat(tableWidth(new jsPDF({ unit: 'pt' }), table));
  const doc = new jsPDF({ orientation: 'landscape', unit: 'pt', format });
  doc.setFontSize(14);
  doc.text(title, MARGIN, 32);
  doc.setFontSize(8);
  doc.setTextColor(90);
  doc.text(`${rows.length} case(s)`, MARGIN, 46);
  const columnStyles: Record<number, { halign?: 'right'; cellWidth?: number }> = {};
  table.align.forEach((a, i) => {
    if (a === 'right') columnStyles[i] = { halign: 'right' };
  });
  if (table.messageColumn !== null) columnStyles[table.messageColumn] = { cellWidth: MESSAGE_WIDTH };
  autoTable(doc, {
    head: [table.head],
    body: table.body,
    startY: 54,
    margin: MARGIN,
    theme: 'grid',
    styles: {
      fontSize: FONT_SIZE,
      cellPadding: CELL_PADDING,
      overflow: 'linebreak',
      lineColor: 200,
      lineWidth: 0.4,
    },
    headStyles: { fillColor: [240, 240, 240], textColor: 20, fontStyle: 'bold' },
    columnStyles,
  });
  doc.save(fileName);
}
