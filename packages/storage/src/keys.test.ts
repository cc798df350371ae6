import { describe, expect, it } from 'vitest';
import { HttpError } from '@portal/core';
import { assertTenantKey, isObjectKey, newObjectKey, safeFilename } from './keys';

describe('object keys', () => {
  it('reduces any file name to one safe segment', () => {
    expect(safeFilename('Évidence report (final).pdf')).toBe('Evidence_report_final_.pdf');
    expect(safeFilename('../../northbank/x.pdf')).toBe('x.pdf');
    expect(safeFilename('C:\\Users\\me\\scan.PDF')).toBe('scan.PDF');
    expect(safeFilename('.htaccess')).toBe('htaccess');
    expect(safeFilename('..')).toBe('file');
    expect(safeFilename('')).toBe('file');
    expect(safeFilename('a..b.csv')).toBe('a.b.csv');
    const long = safeFilename(`${'x'.repeat(300)}.pdf`);
    expect(long).toHaveLength(120);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('makes keys under the tenant that parse back', () => {
    const key = newObjectKey('acme', 'onboarding', 'mids.csv');
    expect(key).toMatch(/^acme\/onboarding\/[0-9a-f-]{36}\/mids\.csv$/);
    expect(isObjectKey(key)).toBe(true);
    expect(() => newObjectKey('../x', 'onboarding', 'a')).toThrow(/tenant/);
    expect(() => newObjectKey('acme', 'a/b', 'a')).toThrow(/area/);
  });

  it("refuses another tenant's key and malformed keys as not found", () => {
    const key = newObjectKey('northbank', 'templates', 'a.pdf');
    expect(() => assertTenantKey('northbank', key)).not.toThrow();
    for (const [tenant, k] of [
      ['acme', key],
      ['acme', key.replace('northbank', 'acme').replace('/a.pdf', '/../a.pdf')],
      ['acme', 'acme/templates/not-a-uuid/a.pdf'],
      ['acme', `acme/templates/${key.split('/')[2]}/a.pdf/extra`],
    ] as const) {
      const error = (() => {
        try {
          assertTenantKey(tenant, k);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).statusCode).toBe(404);
    }
  });
});
