import { REPRESENTMENT_MESSAGES as M } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { checkRepresentmentFile, checkStaged, type StagedDocument } from './representment-checks';

const doc = (size: number, pages: number): StagedDocument => ({
  key: `${size}-${pages}`,
  type: 'file',
  label: 'x',
  size,
  pages,
});
const MB10 = 10485760;

describe('upload modal checks (the server applies the same, spec 2 §5)', () => {
  it('needs a document; totals within size and pages; 0 pages means no limit; no config is the generic error', () => {
    expect(checkStaged([], { maxBytes: MB10, maxPages: 50 })).toBe(M.noFile);
    expect(checkStaged([doc(MB10, 1), doc(1, 1)], { maxBytes: MB10, maxPages: 50 })).toBe(
      'Files exceed 10MB total limit.',
    );
    expect(checkStaged([doc(10, 49), doc(10, 2)], { maxBytes: MB10, maxPages: 50 })).toBe(
      'Images and PDF pages must not exceed 50 total.',
    );
    expect(checkStaged([doc(10, 500)], { maxBytes: MB10, maxPages: 0 })).toBeNull();
    expect(checkStaged([doc(10, 1)], { maxBytes: undefined, maxPages: undefined })).toBe(M.failed);
  });
  it('checks by content: JPEG end marker, PDF loads, nothing else', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0xff, 0xd9]);
    expect(await checkRepresentmentFile(new Blob([jpeg]), MB10)).toEqual({
      ok: true,
      contentType: 'image/jpeg',
      pages: 1,
    });
    expect(await checkRepresentmentFile(new Blob([jpeg.subarray(0, 6)]), MB10)).toEqual({
      ok: false,
      message: M.corruptJpg,
    });
    expect(await checkRepresentmentFile(new Blob(['%PDF-1.7 broken']), MB10)).toEqual({
      ok: false,
      message: M.corruptPdf,
    });
    expect(await checkRepresentmentFile(new Blob(['GIF89a']), MB10)).toEqual({
      ok: false,
      message: M.wrongType(10),
    });
  });
});
