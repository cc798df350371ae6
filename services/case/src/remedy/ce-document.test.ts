import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderCeDocument } from './ce-document';

const input = {
  caseId: 42,
  caseNo: 'CN-42',
  merchantName: 'Shoes Inc',
  submittedBy: 'manager',
  submittedAt: '2026-11-23T10:00:00.000Z',
};

describe('CE document', () => {
  it('renders the pairs of doc, deterministically, over as many pages as needed', async () => {
    const doc = Array.from({ length: 120 }, (_, i) => ({
      name: `Field ${i}`,
      value: `Value ${i} `.repeat((i % 7) + 1),
    }));
    const a = await renderCeDocument({ ...input, doc });
    const b = await renderCeDocument({ ...input, doc });
    expect(a.sha256).toBe(b.sha256);
    expect(a.pages).toBeGreaterThan(1);
    const loaded = await PDFDocument.load(a.bytes);
    expect(loaded.getPageCount()).toBe(a.pages);
    expect(loaded.getTitle()).toBe('Compelling Evidence 3.0 - Case CN-42');
  });

  it('survives text the standard fonts cannot encode and words longer than a line', async () => {
    const r = await renderCeDocument({
      ...input,
      doc: [
        { name: 'Heading', value: '' },
        { name: 'Name ✓ 名前', value: 'Zoë 😀 \u0000 line\r\nnext' },
        { name: 'Fingerprint', value: 'x'.repeat(600) },
      ],
    });
    expect(r.pages).toBe(1);
    expect(r.bytes.length).toBeGreaterThan(500);
  });
});
