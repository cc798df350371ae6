import type { CaseRow } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { detailOf, isDetail, withDetails } from './expandable-rows';

const row = (id: number) => ({ id }) as CaseRow;

describe('expandable rows', () => {
  it('puts a detail item after each expanded case, and only those', () => {
    const rows = [row(1), row(2), row(3)];
    const out = withDetails(rows, new Set([2, 3, 99]));
    expect(out.map((r) => [r.id, isDetail(r)])).toEqual([
      [1, false],
      [2, false],
      [2, true],
      [3, false],
      [3, true],
    ]);
    expect(rows.some(isDetail)).toBe(false);
  });

  it('keeps one detail object per case row (a refresh with the same rows redraws nothing)', () => {
    const r = row(7);
    expect(detailOf(r)).toBe(detailOf(r));
    expect(detailOf(row(7))).not.toBe(detailOf(r));
  });
});
