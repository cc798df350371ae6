import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';

/** US Letter in PDF points: a JPEG is placed on a page of this size, scaled to fit within the margins. */
const PAGE = { width: 612, height: 792, margin: 36 };

export interface CompileInput {
  contentType: string;
  bytes: Uint8Array;
}

/**
 * One PDF from the version's documents in order (spec 2 §2.6): the pages of
 * each PDF copied as they are, each JPEG on a page of its own. Deterministic
 * for the same input (fixed dates, no random ids), so a retried compile
 * writes the same bytes.
 */
export async function compileRepresentment(
  parts: readonly CompileInput[],
): Promise<{ bytes: Uint8Array; pages: number }> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const epoch = new Date(0);
  out.setCreationDate(epoch);
  out.setModificationDate(epoch);
  out.setProducer('Chargeback portal');
  out.setTitle('Representment');
  for (const part of parts) {
    // pdf-lib reads a JPEG through a DataView over the whole ArrayBuffer (it ignores byteOffset):
    // a Node Buffer from the pool would be read at the wrong place, so give it its own copy.
    const bytes = new Uint8Array(part.bytes);
    if (part.contentType === 'application/pdf') {
      const src = await PDFDocument.load(bytes, { updateMetadata: false });
      const pages = await out.copyPages(src, src.getPageIndices());
      for (const page of pages) out.addPage(page);
    } else {
      const image = await out.embedJpg(bytes);
      const page = out.addPage([PAGE.width, PAGE.height]);
      const box = { w: PAGE.width - 2 * PAGE.margin, h: PAGE.height - 2 * PAGE.margin };
      const scale = Math.min(box.w / image.width, box.h / image.height, 1);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: (PAGE.width - w) / 2, y: (PAGE.height - h) / 2, width: w, height: h });
    }
  }
  const bytes = await out.save({ useObjectStreams: true });
  return { bytes, pages: out.getPageCount() };
}

/** A stable object key for the compiled PDF of a version (`<tenant>/<area>/<uuid>/<name>`): a retry overwrites, never adds. */
export function compiledKey(tenant: string, versionId: number, caseId: number): string {
  const h = createHash('sha256').update(`compiled:${tenant}:${versionId}`).digest('hex');
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return `${tenant}/representments/${uuid}/representment-${caseId}.pdf`;
}
