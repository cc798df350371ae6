import { describe, expect, it } from 'vitest';
import { pageRange } from './pager';

describe('pageRange', () => {
  it('names the rows shown, the last page short, an empty list 0 of 0', () => {
    expect(pageRange(0, 5, 12)).toBe('1-5 of 12');
    expect(pageRange(10, 5, 12)).toBe('11-12 of 12');
    expect(pageRange(0, 25, 0)).toBe('0 of 0');
  });

  it('groups thousands (en-US)', () => {
    expect(pageRange(1000, 50, 2500)).toBe('1,001-1,050 of 2,500');
  });
});
