import { describe, expect, it } from 'vitest';
import { TEMPLATE_MESSAGES } from '@portal/contracts';
import { flatJpeg } from '../seed/demo-jpeg';
import { textPdf } from '../seed/seed-templates';
import { simplePdf } from '../seed/simple-pdf';
import { checkTemplateFile } from './file-check';

const refused = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: Error) => e.message,
  );

describe('checkTemplateFile (spec 2 §5 upload rules on the stored bytes)', () => {
  it('counts a JPEG as one page and refuses one without its end marker', async () => {
    expect(await checkTemplateFile(flatJpeg(40, 24), 'image/jpeg')).toEqual({ pages: 1 });
    expect(await refused(checkTemplateFile(flatJpeg(40, 24).subarray(0, -1), 'image/jpeg'))).toBe(
      TEMPLATE_MESSAGES.jpgCorrupt,
    );
    expect(await refused(checkTemplateFile(simplePdf('x', []), 'image/jpeg'))).toBe(
      TEMPLATE_MESSAGES.jpgCorrupt,
    );
  });

  it('counts the pages of a PDF itself', async () => {
    expect(await checkTemplateFile(await textPdf('t', [['a'], ['b'], ['c']]), 'application/pdf')).toEqual({
      pages: 3,
    });
    expect(await checkTemplateFile(simplePdf('t', [{ text: 'a' }]), 'application/pdf')).toEqual({ pages: 1 });
  });

  it('refuses a corrupt, truncated, non-PDF or encrypted PDF', async () => {
    const o = '0'.repeat(64);
    const encrypted = Buffer.from(
      simplePdf('s', [])
        .toString('latin1')
        .replace(
          '/Root 1 0 R',
          `/Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 /O <${o}> /U <${o}> /P -4 >>`,
        ),
      'latin1',
    );
    for (const bytes of [Buffer.from('hello'), flatJpeg(8, 8), Buffer.from('%PDF-1.4\n%%EOF\n'), encrypted])
      expect(await refused(checkTemplateFile(bytes, 'application/pdf'))).toBe(TEMPLATE_MESSAGES.pdfCorrupt);
  });
});
