import { describe, expect, it } from 'vitest';
import { simplePdf } from './simple-pdf';

describe('simplePdf', () => {
  const pdf = simplePdf('Representment (Case 1)', [
    { text: 'Merchant: Blue Sky (Outfitters) \\ Co', bold: true },
    { text: 'word '.repeat(200), gap: 6 },
    { text: 'Non-Latin-1: 漢字 – ok' },
  ]);
  const text = pdf.toString('latin1');

  it('is a PDF whose cross-reference table points at each object', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const entries = text.slice(startxref).split('\n').slice(3, 10);
    entries.forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
  });

  it('gives the content stream its exact length and escapes string literals', () => {
    const m = /<< \/Length (\d+) >>\nstream\n/.exec(text)!;
    const start = m.index + m[0].length;
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
    expect(text).toContain('(Merchant: Blue Sky \\(Outfitters\\) \\\\ Co) Tj');
    expect(text).toContain('(Non-Latin-1: ?? ? ok) Tj');
  });

  it('wraps long text over several lines', () => {
    expect(text.match(/\(word word[^)]*\) Tj/g)!.length).toBeGreaterThan(3);
  });
});
