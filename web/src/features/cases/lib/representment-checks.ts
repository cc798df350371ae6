import { bytesToMb, REPRESENTMENT_MESSAGES as M, type PageOp } from '@portal/contracts';

/**
 * The upload modal's checks (spec 2 §5), the same rules and texts the docs
 * service applies again to the stored bytes: PDF or JPEG by content; a JPEG
 * ends with FF D9 and counts as one page; a PDF loads (pdf-lib, loaded only
 * here) and is not encrypted; totals within the user's stack config.
 */
export interface StagedDocument {
  key: string;
  type: 'file' | 'template';
  label: string;
  size: number;
  pages: number;
  templateId?: number;
  file?: File;
  contentType?: 'application/pdf' | 'image/jpeg';
  /** Pages removed, turned or masked in the packet preview (issue 34). */
  ops?: PageOp[];
}

export type FileCheck =
  { ok: true; contentType: 'application/pdf' | 'image/jpeg'; pages: number } | { ok: false; message: string };

function jpegComplete(b: Uint8Array): boolean {
  let end = b.length;
  while (end > 2 && (b[end - 1] === 0x00 || b[end - 1] === 0x0a || b[end - 1] === 0x0d)) end--;
  return end >= 4 && b[end - 2] === 0xff && b[end - 1] === 0xd9;
}

export async function checkRepresentmentFile(file: Blob, maxBytes: number): Promise<FileCheck> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const mb = bytesToMb(maxBytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return jpegComplete(bytes)
      ? { ok: true, contentType: 'image/jpeg', pages: 1 }
      : { ok: false, message: M.corruptJpg };
  }
  if (String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-') {
    try {
      const { PDFDocument } = await import('pdf-lib');
      const doc = await PDFDocument.load(bytes, { updateMetadata: false });
      if (doc.isEncrypted || doc.getPageCount() < 1) return { ok: false, message: M.corruptPdf };
      return { ok: true, contentType: 'application/pdf', pages: doc.getPageCount() };
    } catch {
      return { ok: false, message: M.corruptPdf };
    }
  }
  return { ok: false, message: M.wrongType(mb) };
}

/** The staged set as a whole: at least one document, total size and pages within the limits (0 pages = no limit). */
export function checkStaged(
  staged: readonly StagedDocument[],
  limits: { maxBytes: number | undefined; maxPages: number | undefined },
): string | null {
  if (!staged.length) return M.noFile;
  if (limits.maxBytes === undefined || limits.maxPages === undefined) return M.failed;
  const size = staged.reduce((n, d) => n + d.size, 0);
  if (size > limits.maxBytes) return M.tooLarge(bytesToMb(limits.maxBytes));
  const pages = staged.reduce((n, d) => n + (d.pages || 1), 0);
  if (limits.maxPages > 0 && pages > limits.maxPages) return M.tooManyPages(limits.maxPages);
  return null;
}
