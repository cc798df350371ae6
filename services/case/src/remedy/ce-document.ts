import { createHash } from 'node:crypto';
import type { RemedyDocEntry } from '@portal/contracts';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** US Letter in PDF points. */
const PAGE = { width: 612, height: 792, margin: 50 };
const SIZE = { title: 16, head: 10, body: 10 };
const LINE = 14;

/** The standard fonts encode WinAnsi only: anything else becomes '?' instead of failing the submission. */
function printable(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[^\n\x20-\x7E\xA0-\xFF]/g, '?');
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const para of printable(text).split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/)) {
      if (!word) continue;
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      // A word longer than the line (an ARN, a fingerprint) is cut where it overflows.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let n = rest.length;
        while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

interface CeDocumentInput {
  caseId: number;
  caseNo: string;
  merchantName: string;
  submittedBy: string | null;
  /** ISO time of the submission (printed; also the PDF dates, so the same input gives the same bytes). */
  submittedAt: string;
  doc: readonly RemedyDocEntry[];
}

/**
 * The CE 3.0 document (spec 2 §3 'Remedy submission body' `doc`): a title,
 * the case, then every name/value pair of `doc` in order, as the wizard
 * composed them (disputed transaction, two undisputed transactions, matching
 * evidence), wrapped over as many pages as needed.
 */
export async function renderCeDocument(
  input: CeDocumentInput,
): Promise<{ bytes: Uint8Array; pages: number; sha256: string }> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const when = new Date(input.submittedAt);
  pdf.setCreationDate(when);
  pdf.setModificationDate(when);
  pdf.setProducer('Chargeback portal');
  pdf.setTitle(`Compelling Evidence 3.0 - Case ${printable(input.caseNo)}`);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * PAGE.margin;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const need = (h: number) => {
    if (y - h >= PAGE.margin) return;
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const write = (text: string, font: PDFFont, size: number, x = PAGE.margin, w = width) => {
    for (const line of wrap(text, font, size, w)) {
      need(LINE);
      page.drawText(line, { x, y: y - size, size, font, color: rgb(0.1, 0.1, 0.1) });
      y -= LINE;
    }
  };

  write('Compelling Evidence 3.0 (CE 3.0) Remedy', bold, SIZE.title);
  y -= 6;
  write(`Case ${input.caseNo} (CB ID ${input.caseId}) - ${input.merchantName}`, regular, SIZE.body);
  write(`Submitted ${input.submittedAt} by ${input.submittedBy ?? 'unknown'}`, regular, SIZE.body);
  y -= 10;
  const labelWidth = 190;
  for (const entry of input.doc) {
    const value = entry.value.trim();
    if (!value) {
      // A name without value is a section heading.
      y -= 4;
      need(LINE * 2);
      write(entry.name, bold, SIZE.head);
      continue;
    }
    const labelLines = wrap(entry.name, bold, SIZE.body, labelWidth - 10);
    const valueLines = wrap(value, regular, SIZE.body, width - labelWidth);
    const rows = Math.max(labelLines.length, valueLines.length);
    for (let i = 0; i < rows; i++) {
      need(LINE);
      if (labelLines[i])
        page.drawText(labelLines[i]!, { x: PAGE.margin, y: y - SIZE.body, size: SIZE.body, font: bold });
      if (valueLines[i])
        page.drawText(valueLines[i]!, {
          x: PAGE.margin + labelWidth,
          y: y - SIZE.body,
          size: SIZE.body,
          font: regular,
        });
      y -= LINE;
    }
  }
  const bytes = await pdf.save({ useObjectStreams: true });
  return { bytes, pages: pdf.getPageCount(), sha256: createHash('sha256').update(bytes).digest('hex') };
}
