import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A test card number (Visa's test PAN): passes the Luhn check. */
export const TEST_PAN = '4111 1111 1111 1111';

/**
 * A PDF of one page per entry: its lines of text, or a blank page for null.
 * The evidence-preview tests and bench stage it (issue 34).
 */
export async function evidencePdf(pages: Array<string[] | null>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    (lines ?? []).forEach((text, i) => page.drawText(text, { x: 72, y: 700 - i * 20, size: 12, font }));
  }
  return doc.save();
}
