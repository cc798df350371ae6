import { TEMPLATE_MAX_BYTES, TEMPLATE_MESSAGES } from '@portal/contracts';

export interface CheckedFile {
  file: File;
  contentType: 'application/pdf' | 'image/jpeg';
  pages: number;
}

/** JPEG or PDF by the browser's type or, when it has none, by the extension. */
export function templateContentType(file: { name: string; type: string }): CheckedFile['contentType'] | null {
  const type = file.type.toLowerCase();
  if (type === 'image/jpeg' || type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'application/pdf') return 'application/pdf';
  if (type) return null;
  if (/\.jpe?g$/i.test(file.name)) return 'image/jpeg';
  if (/\.pdf$/i.test(file.name)) return 'application/pdf';
  return null;
}

/** JPEG starts with SOI and ends with EOI (FFD9): spec 2 §5. */
export function isCompleteJpeg(bytes: Uint8Array): boolean {
  const n = bytes.length;
  return n >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[n - 2] === 0xff && bytes[n - 1] === 0xd9;
}

/**
 * The client side of the server's checks (services/docs/src/templates/file-check.ts), so a person
 * hears about a bad file before it is uploaded: type, size, the JPEG end marker, and a PDF that
 * loads unencrypted (pdf-lib, loaded only here), whose pages are counted. The server checks again.
 */
export async function checkTemplateFile(file: File): Promise<CheckedFile> {
  const contentType = templateContentType(file);
  if (!contentType) throw new Error(TEMPLATE_MESSAGES.typeNotAllowed);
  if (file.size > TEMPLATE_MAX_BYTES) throw new Error(TEMPLATE_MESSAGES.tooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (contentType === 'image/jpeg') {
    if (!isCompleteJpeg(bytes)) throw new Error(TEMPLATE_MESSAGES.jpgCorrupt);
    return { file, contentType, pages: 1 };
  }
  try {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false });
    const pages = doc.getPageCount();
    if (doc.isEncrypted || pages < 1) throw new Error('unusable');
    return { file, contentType, pages };
  } catch {
    throw new Error(TEMPLATE_MESSAGES.pdfCorrupt);
  }
}
