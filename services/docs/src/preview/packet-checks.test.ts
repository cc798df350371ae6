import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { compileRepresentment } from '../representment/compile';
import { flatJpeg } from '../seed/demo-jpeg';
import { checkPacket } from './packet-checks';
import { findPans, isCardNumber, luhn } from './pan';
import { datesIn } from './evidence-dates';
import { openPdf } from './pdfjs-node';

async function pdfOf(lines: Array<string | null>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const line of lines) {
    const page = doc.addPage([612, 792]);
    if (line) page.drawText(line, { x: 72, y: 700, size: 12, font });
  }
  return doc.save();
}
const limits = { maxBytes: 10 * 1048576, maxPages: 50 };

async function textOf(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openPdf(bytes);
  const out: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    out.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await pdf.destroy();
  return out;
}

describe('card numbers', () => {
  it('finds Luhn-valid 13-19 digit numbers, grouped or not, beside other numbers', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(findPans('Card 4111 1111 1111 1111 2027').map((p) => p.digits)).toEqual(['4111111111111111']);
    expect(findPans('amex 3782-822463-10005 ok').map((p) => p.digits)).toEqual(['378282246310005']);
    expect(findPans('order 4111111111111112 and 12345')).toEqual([]);
    expect(findPans('short 411111111111')).toEqual([]);
  });

  it('counts only numbers a card brand issues: its issuer range and length, not any Luhn-valid id', () => {
    /** The Luhn check digit appended to a number. */
    const withCheck = (body: string) => [...'0123456789'].map((d) => body + d).find((n) => luhn(n))!;
    for (const card of ['5555555555554444', '2223003122003222', '6011111111111117', '3530111333300000'])
      expect(isCardNumber(card), card).toBe(true);
    expect(isCardNumber('30569309025904')).toBe(true); // Diners Club, 14 digits
    // A case number (14 digits from the year), a Luhn-valid 16-digit number in no issuer range, a Visa
    // prefix at a length Visa does not issue.
    const caseNo = withCheck('2610301000093');
    expect(luhn(caseNo)).toBe(true);
    expect(findPans(`Case Number ${caseNo}`)).toEqual([]);
    expect(isCardNumber(withCheck('900000000000000'))).toBe(false);
    expect(isCardNumber(withCheck('41111111111111'))).toBe(false);
  });

  it('reads dates in three spellings', () => {
    expect(datesIn('on 2026-12-05, 12/06/2026 and Dec 7, 2026; not 2026-02-31')).toEqual([
      '2026-12-05',
      '2026-12-06',
      '2026-12-07',
    ]);
  });
});

describe('packet checks and page operations', { timeout: 30_000 }, () => {
  it('reports a card number with its mask, a blank page and a late date; the mask removes the number', async () => {
    const pdf = await pdfOf(['Paid with card 4111 1111 1111 1111 on 2026-12-20', null, 'Receipt']);
    const packet = await compileRepresentment([{ contentType: 'application/pdf', bytes: pdf }]);
    const checks = await checkPacket({ ...packet, dueDate: '2026-12-10', limits });
    expect(checks.map((c) => [c.code, c.level, c.page])).toEqual([
      ['pan', 'blocked', 1],
      ['date_after_due', 'warning', 1],
      ['blank', 'warning', 2],
    ]);
    expect(checks[0]!.message).toBe(
      'Page 1 shows a full card number (•••• 1111). Mask it before the packet is submitted.',
    );
    const mask = checks[0]!.mask!;
    expect(mask).toMatchObject({ document: 0, page: 0 });

    const masked = await compileRepresentment([
      {
        contentType: 'application/pdf',
        bytes: pdf,
        ops: [
          { op: 'mask', page: mask.page, boxes: mask.boxes },
          { op: 'remove', page: 1 },
        ],
      },
    ]);
    expect(masked.pages).toBe(2);
    expect(masked.pageMap).toEqual([
      { document: 0, sourcePage: 0, rotation: 0, masked: true },
      { document: 0, sourcePage: 2, rotation: 0, masked: false },
    ]);
    // Redrawn as an image: the number is in no text layer any more, and the page is not blank.
    expect(await textOf(masked.bytes)).toEqual(['', 'Receipt']);
    const after = await checkPacket({ ...masked, dueDate: '2026-12-10', limits });
    expect(after).toEqual([]);
    // Deterministic: the same input gives the same bytes (the preview is the compiled packet).
    const again = await compileRepresentment([
      {
        contentType: 'application/pdf',
        bytes: pdf,
        ops: [
          { op: 'mask', page: mask.page, boxes: mask.boxes },
          { op: 'remove', page: 1 },
        ],
      },
    ]);
    expect(Buffer.from(again.bytes).equals(Buffer.from(masked.bytes))).toBe(true);
  });

  it('turns pages, keeps a JPEG whole, and refuses impossible operations', async () => {
    const pdf = await pdfOf(['One', 'Two']);
    const jpg = flatJpeg(64, 48, 40);
    const out = await compileRepresentment([
      { contentType: 'image/jpeg', bytes: jpg, ops: [{ op: 'rotate', page: 0, degrees: 90 }] },
      { contentType: 'application/pdf', bytes: pdf, ops: [{ op: 'rotate', page: 1, degrees: 270 }] },
    ]);
    const doc = await PDFDocument.load(out.bytes);
    expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([90, 0, 270]);
    expect(out.pageMap.map((p) => [p.document, p.sourcePage])).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    const fail = (ops: never[] | object[], bytes = pdf, contentType = 'application/pdf') =>
      compileRepresentment([{ contentType, bytes, ops: ops as never, filename: 'a.pdf' }]).then(
        () => 'compiled',
        (e: Error) => e.message,
      );
    expect(await fail([{ op: 'remove', page: 5 }])).toBe('a.pdf has no page 6.');
    expect(
      await fail([
        { op: 'remove', page: 0 },
        { op: 'remove', page: 1 },
      ]),
    ).toBe('Every page of a.pdf was removed: remove the document from the packet instead.');
    expect(
      await fail([{ op: 'mask', page: 0, boxes: [{ x: 1, y: 1, width: 5, height: 5 }] }], jpg, 'image/jpeg'),
    ).toBe('Only pages of a PDF can be masked (a.pdf).');
  });

  it('reports a packet over the limits', async () => {
    const pdf = await pdfOf(['a', 'b', 'c']);
    const packet = await compileRepresentment([{ contentType: 'application/pdf', bytes: pdf }]);
    const checks = await checkPacket({
      ...packet,
      dueDate: null,
      limits: { maxBytes: 100, maxPages: 2 },
      missingDocTypes: ['Proof of Delivery'],
    });
    expect(checks.map((c) => c.message)).toEqual([
      'Images and PDF pages must not exceed 2 total.',
      'Files exceed 0MB total limit.',
      'Please add a document for Proof of Delivery.',
    ]);
  });
});
