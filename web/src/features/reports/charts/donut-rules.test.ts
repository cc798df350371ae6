import { describe, expect, it } from 'vitest';
import { GREY, PALETTE, donutColors, donutLabel, largestSlice, percentAxisMax } from './donut-rules';

describe('donut rules', () => {
  it('greys other and pending slices and keeps the palette order for the rest', () => {
    expect(donutColors(['Visa', 'Other', 'Mastercard', 'Pending review'])).toEqual([
      PALETTE[0],
      GREY,
      PALETTE[1],
      GREY,
    ]);
  });
  it('highlights the largest slice and hides labels under 1%', () => {
    expect(largestSlice([3, 9, 9, 1])).toBe(1);
    expect(largestSlice([0, 0])).toBe(-1);
    expect(donutLabel(0.99)).toBe('');
    expect(donutLabel(12.345)).toBe('12.3%');
  });
  it('caps percent axes at 100 with headroom', () => {
    expect(percentAxisMax([10, 20])).toBeCloseTo(22);
    expect(percentAxisMax([95])).toBe(100);
  });
});
