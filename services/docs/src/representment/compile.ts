import { createHash } from 'node:crypto';
import { degrees, PDFDocument, type PDFPage } from 'pdf-lib';
import type { PageOp } from '@portal/contracts';
import { maskedPageImage } from '../preview/mask-page';
import { planPages, type PlannedPage } from '../preview/page-plan';
import { openPdf } from '../preview/pdfjs-node';

/** US Letter in PDF points: a JPEG is placed on a page of this size, scaled to fit within the margins. */
const PAGE = { width: 612, height: 792, margin: 36 };

export interface CompileInput {
  contentType: string;
  bytes: Uint8Array;
  /** The document's page operations (issue 34); its name for their refusals. */
  ops?: readonly PageOp[];
  filename?: string;
}

/** Where a page of the compiled PDF came from: the part (its index), its page (0-based), what was done to it. */
export interface CompiledPage {
  document: number;
  sourcePage: number;
  rotation: number;
  masked: boolean;
}

/**
 * One PDF from the version's documents in order (spec 2 §2.6): the pages of
 * each PDF copied as they are, each JPEG on a page of its own, with the
 * documents' page operations applied (issue 34: pages removed, turned, or
 * masked). Deterministic for the same input (fixed dates, no random ids), so
 * a retried compile writes the same bytes, and the preview, which calls this
 * very function, is the packet byte for byte.
 */
export async function compileRepresentment(
  parts: readonly CompileInput[],
): Promise<{ bytes: Uint8Array; pages: number; pageMap: CompiledPage[] }> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const epoch = new Date(0);
  out.setCreationDate(epoch);
  out.setModificationDate(epoch);
  out.setProducer('Chargeback portal');
  out.setTitle('Representment');
  const pageMap: CompiledPage[] = [];
  for (const [document, part] of parts.entries()) {
    // pdf-lib reads a JPEG through a DataView over the whole ArrayBuffer (it ignores byteOffset):
    // a Node Buffer from the pool would be read at the wrong place, so give it its own copy.
    const bytes = new Uint8Array(part.bytes);
    const filename = part.filename ?? `Document ${document + 1}`;
    if (part.contentType === 'application/pdf') {
      const src = await PDFDocument.load(bytes, { updateMetadata: false });
      const plan = planPages(part.ops, {
        pages: src.getPageCount(),
        contentType: part.contentType,
        filename,
      });
      await addPdfPages(out, src, bytes, plan);
      for (const p of plan) pageMap.push(mapped(document, p));
    } else {
      const plan = planPages(part.ops, { pages: 1, contentType: part.contentType, filename });
      const image = await out.embedJpg(bytes);
      const page = out.addPage([PAGE.width, PAGE.height]);
      const box = { w: PAGE.width - 2 * PAGE.margin, h: PAGE.height - 2 * PAGE.margin };
      const scale = Math.min(box.w / image.width, box.h / image.height, 1);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: (PAGE.width - w) / 2, y: (PAGE.height - h) / 2, width: w, height: h });
      turn(page, plan[0]!.rotate);
      pageMap.push(mapped(document, plan[0]!));
    }
  }
  const bytes = await out.save({ useObjectStreams: true });
  return { bytes, pages: out.getPageCount(), pageMap };
}

const mapped = (document: number, p: PlannedPage): CompiledPage => ({
  document,
  sourcePage: p.page,
  rotation: p.rotate,
  masked: p.boxes.length > 0,
});

function turn(page: PDFPage, by: number) {
  if (by) page.setRotation(degrees((page.getRotation().angle + by) % 360));
}

/** A PDF's planned pages: copied as they are (turned when asked), or redrawn with their masks. */
async function addPdfPages(out: PDFDocument, src: PDFDocument, bytes: Uint8Array, plan: PlannedPage[]) {
  const plain = plan.filter((p) => !p.boxes.length);
  const copied = new Map(
    (
      await out.copyPages(
        src,
        plain.map((p) => p.page),
      )
    ).map((page, i) => [plain[i]!.page, page]),
  );
  const rendered = plain.length === plan.length ? null : await openPdf(bytes);
  try {
    for (const p of plan) {
      const copy = copied.get(p.page);
      if (copy) {
        turn(out.addPage(copy), p.rotate);
        continue;
      }
      const masked = await maskedPageImage(rendered!, p.page, p.boxes);
      const image = await out.embedPng(masked.png);
      const page = out.addPage([masked.width, masked.height]);
      page.drawImage(image, { x: 0, y: 0, width: masked.width, height: masked.height });
      page.setRotation(degrees(src.getPage(p.page).getRotation().angle));
      turn(page, p.rotate);
    }
  } finally {
    await rendered?.destroy();
  }
}

/** A stable object key for the compiled PDF of a version (`<tenant>/<area>/<uuid>/<name>`): a retry overwrites, never adds. */
export function compiledKey(tenant: string, versionId: number, caseId: number): string {
  const h = createHash('sha256').update(`compiled:${tenant}:${versionId}`).digest('hex');
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return `${tenant}/representments/${uuid}/representment-${caseId}.pdf`;
}
