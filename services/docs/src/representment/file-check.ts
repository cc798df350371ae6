import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import { REPRESENTMENT_MESSAGES } from '@portal/contracts';
import { badRequest } from '@portal/core';

/**
 * Checks a stored representment file by its bytes (spec 2 §5), never by the
 * name or the declared type: PDF (`%PDF-`) or JPEG (`FF D8 FF`) only; a JPEG
 * must end with the EOI marker (`FF D9`); a PDF must load with pdf-lib and
 * not be encrypted. Answers the real type, the page count and the SHA-256.
 */
export interface CheckedFile {
  contentType: 'application/pdf' | 'image/jpeg';
  pages: number;
  sha256: string;
  size: number;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function sniffType(bytes: Uint8Array): 'application/pdf' | 'image/jpeg' | null {
  if (bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-')
    return 'application/pdf';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** A JPEG ends with FF D9 (some writers pad with zero bytes or a newline after it). */
export function jpegComplete(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 2 && (bytes[end - 1] === 0x00 || bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  return end >= 4 && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}

/** Pages of a PDF that loads and is not encrypted; null otherwise. */
export async function pdfPages(bytes: Uint8Array): Promise<number | null> {
  try {
    // Encrypted documents throw (EncryptedPDFError) unless ignoreEncryption is set.
    const doc = await PDFDocument.load(new Uint8Array(bytes), { updateMetadata: false });
    if (doc.isEncrypted) return null;
    const pages = doc.getPageCount();
    return pages >= 1 ? pages : null;
  } catch {
    return null;
  }
}

/** The compile step places the JPEG with pdf-lib: its header (frame size, components) must parse. */
async function jpegEmbeddable(bytes: Uint8Array): Promise<boolean> {
  try {
    const doc = await PDFDocument.create();
    await doc.embedJpg(new Uint8Array(bytes));
    return true;
  } catch {
    return false;
  }
}

export async function checkFile(bytes: Uint8Array, mbLimit: number): Promise<CheckedFile> {
  const type = sniffType(bytes);
  if (type === 'image/jpeg') {
    if (!jpegComplete(bytes) || !(await jpegEmbeddable(bytes)))
      throw badRequest(REPRESENTMENT_MESSAGES.corruptJpg);
    return { contentType: type, pages: 1, sha256: sha256(bytes), size: bytes.length };
  }
  if (type === 'application/pdf') {
    const pages = await pdfPages(bytes);
    if (pages === null) throw badRequest(REPRESENTMENT_MESSAGES.corruptPdf);
    return { contentType: type, pages, sha256: sha256(bytes), size: bytes.length };
  }
  throw badRequest(REPRESENTMENT_MESSAGES.wrongType(mbLimit));
}

/**
 * Whether every type an upload was declared as (the upload link's, which the
 * store keeps with the object, and the submission's) is the type its bytes
 * are (issue 27 D): a PDF asked for and submitted as a JPEG, or the reverse,
 * is refused rather than stored under the wrong type. Media types compare
 * without case (RFC 2045).
 */
export function declaredAs(detected: CheckedFile['contentType'], declared: readonly string[]): boolean {
  return declared.every((type) => type.trim().toLowerCase() === detected);
}

/** A stored object's bytes; with a limit, reading stops at the first byte over it (400 with its message). */
export async function readAll(stream: Readable, limit?: { bytes: number; message: string }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (limit && size > limit.bytes) {
      stream.destroy();
      throw badRequest(limit.message);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
