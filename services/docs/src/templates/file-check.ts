import { TEMPLATE_MESSAGES } from '@portal/contracts';
import { badRequest } from '@portal/core';
import { jpegComplete, pdfPages, sniffType } from '../representment/file-check';

export type TemplateContentType = 'application/pdf' | 'image/jpeg';

/**
 * The upload rules of spec 2 §5 on the stored bytes, whatever the client said
 * (the same checks as a representment file: representment/file-check.ts): a
 * JPG ends with the EOI marker and counts as one page; a PDF must load with
 * pdf-lib, not be encrypted and have pages, which are counted here. The
 * declared type must match the content.
 */
export async function checkTemplateFile(
  bytes: Uint8Array,
  contentType: TemplateContentType,
): Promise<{ pages: number }> {
  if (contentType === 'image/jpeg') {
    if (sniffType(bytes) !== 'image/jpeg' || !jpegComplete(bytes))
      throw badRequest(TEMPLATE_MESSAGES.jpgCorrupt);
    return { pages: 1 };
  }
  const pages = sniffType(bytes) === 'application/pdf' ? await pdfPages(bytes) : null;
  if (pages === null) throw badRequest(TEMPLATE_MESSAGES.pdfCorrupt);
  return { pages };
}
