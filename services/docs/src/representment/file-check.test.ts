import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { REPRESENTMENT_MESSAGES as M } from '@portal/contracts';
import { flatJpeg } from '../seed/demo-jpeg';
import { compileRepresentment } from './compile';
import { checkFile, declaredAs, sha256 } from './file-check';

async function pdf(pages: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]);
  return doc.save({ useObjectStreams: false });
}
function encrypted(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString('latin1');
  return Buffer.from(
    text.replace(
      /trailer\s*<</,
      'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>\n',
    ),
    'latin1',
  );
}
const refusal = async (bytes: Uint8Array) => {
  try {
    await checkFile(bytes, 10);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('representment file checks (spec 2 §5)', () => {
  it('accepts a PDF with its page count and hash, and a JPEG as one page', async () => {
    const bytes = await pdf(3);
    expect(await checkFile(bytes, 10)).toEqual({
      contentType: 'application/pdf',
      pages: 3,
      sha256: sha256(bytes),
      size: bytes.length,
    });
    const jpg = flatJpeg(64, 48);
    expect(await checkFile(jpg, 10)).toMatchObject({ contentType: 'image/jpeg', pages: 1 });
  });
  it('refuses by content, not name: a JPEG without its end marker, a broken or encrypted PDF, anything else', async () => {
    const jpg = flatJpeg(64, 48);
    expect(await refusal(jpg.subarray(0, jpg.length - 2))).toBe(M.corruptJpg);
    // Start and end markers but no frame header: pdf-lib could not place it.
    expect(await refusal(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xd9]))).toBe(M.corruptJpg);
    expect(await refusal(Buffer.from('%PDF-1.7\nnot really'))).toBe(M.corruptPdf);
    expect(await refusal(encrypted(await pdf(1)))).toBe(M.corruptPdf);
    expect(await refusal(Buffer.from('GIF89a....'))).toBe(M.wrongType(10));
    expect(await refusal(Buffer.from(''))).toBe(M.wrongType(10));
  });
  it('compiles PDFs and JPEGs in order into one PDF, the same bytes each time', async () => {
    const parts = [
      { contentType: 'application/pdf', bytes: await pdf(2) },
      { contentType: 'image/jpeg', bytes: flatJpeg(800, 1200) },
      { contentType: 'application/pdf', bytes: await pdf(1) },
    ];
    const a = await compileRepresentment(parts);
    const b = await compileRepresentment(parts);
    expect(a.pages).toBe(4);
    expect(sha256(a.bytes)).toBe(sha256(b.bytes));
    expect((await PDFDocument.load(a.bytes)).getPageCount()).toBe(4);
  });
});

describe('declaredAs (issue 27 D)', () => {
  it('holds when every declared type is the detected one (media types without case)', () => {
    expect(declaredAs('application/pdf', ['application/pdf', 'Application/PDF'])).toBe(true);
    expect(declaredAs('image/jpeg', ['image/jpeg', ' image/jpeg '])).toBe(true);
  });
  it('fails when the link or the submission named another type', () => {
    expect(declaredAs('application/pdf', ['image/jpeg', 'application/pdf'])).toBe(false);
    expect(declaredAs('application/pdf', ['application/pdf', 'image/jpeg'])).toBe(false);
    expect(declaredAs('image/jpeg', ['image/jpeg', 'image/jpg'])).toBe(false);
    expect(declaredAs('image/jpeg', ['application/octet-stream', 'image/jpeg'])).toBe(false);
  });
});
