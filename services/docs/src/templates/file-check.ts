import { PDFDocument } from 'pdf-lib';
import { TEMPLATE_MESSAGES } from '@portal/contracts';
import { badRequest } from '@portal/core';

export type TemplateContentType = 'application/pdf' | 'image/jpeg';

/**
 * The upload rules of spec 2 §5 on the stored bytes, whatever the client said:
 * a JPG starts with SOI and ends with the EOI marker (FFD9) and counts as one
 * page; a PDF must load with pdf-lib, not be encrypted and have pages, which
 * are counted here. The declared type must match the content.
 */
export async function checkTemplateFile(
  bytes: Uint8Array,
  contentType: TemplateContentType,
): Promise<{ pages: number }> {
  if (contentType === 'image/jpeg') {
    const n = bytes.length;
    const ok =
      n >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[n - 2] === 0xff && bytes[n - 1] === 0xd9;
    if (!ok) throw badRequest(TEMPLATE_MESSAGES.jpgCorrupt);
    return { pages: 1 };
  }
  // The header must be near the start (a JPEG or an HTML file named .pdf is not a PDF).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw badRequest(TEMPLATE_MESSAGES.pdfCorrupt);
  let pages: number;
  try {
    // ignoreEncryption false: an encrypted document throws EncryptedPDFError.
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: false,
      updateMetadata: false,
      throwOnInvalidObject: true,
    });
    if (doc.isEncrypted) throw new Error('encrypted');
    pages = doc.getPageCount();
  } catch {
    throw badRequest(TEMPLATE_MESSAGES.pdfCorrupt);
  }
  if (pages < 1) throw badRequest(TEMPLATE_MESSAGES.pdfCorrupt);
  return { pages };
}
