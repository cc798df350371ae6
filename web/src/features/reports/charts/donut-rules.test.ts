import { describe, expect, it } from 'vitest';
import type { ReportRow } from '@portal/contracts';
import {
  GREY,
  PALETTE,
  donutColors,
  donutLabel,
  highlightedSlice,
  largestSlice,
  otherLabel,
  percentAxis,
  percentAxisMax,
  reportSlices,
} from './donut-rules';

const row = (label: string, count: number, percent: number): ReportRow => ({
  key: label,
  label,
  count,
  amount: 0,
  percent,
});

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
  it('top 5: each slice is its percent of every chargeback, the rest one grey Other slice', () => {
    // 30 days, all merchants: 10.4 is 29.21% of all chargebacks; drawn as a share of the top 5 it read 68.4%.
    const rows = [row('10.4', 78, 29.21), row('4842', 12, 4.49), row('4859', 9, 3.37), row('11.3', 8, 3)];
    const slices = reportSlices(rows, 267, 5);
    expect(slices.map((s) => [s.label, s.value, s.percent])).toEqual([
      ['10.4', 78, 29.21],
      ['4842', 12, 4.49],
      ['4859', 9, 3.37],
      ['11.3', 8, 3],
      [otherLabel(5), 160, 59.93],
    ]);
    const shares = slices.map((s) => (100 * s.value) / slices.reduce((sum, x) => sum + x.value, 0));
    expect(shares[0]).toBeCloseTo(29.21, 1);
    expect(donutColors(slices.map((s) => s.label)).at(-1)).toBe(GREY);
    // The Other slice is the largest here, but the highlight is the largest reason code.
    expect(highlightedSlice(slices)).toBe(0);
    // Every chargeback in the top N (or no top N): no Other slice.
    expect(reportSlices(rows, 107, 5)).toHaveLength(4);
    expect(reportSlices(rows, 267)).toHaveLength(4);
    expect(highlightedSlice([])).toBe(-1);
  });
  it('caps percent axes at 100 with headroom', () => {
    expect(percentAxisMax([10, 20])).toBe(25);
    expect(percentAxisMax([95])).toBe(100);
  });
  it('scales percent axes to the data: a nice top a little above the largest value (issue 29)', () => {
    // Values near 0.2% ran to 1.1%: now 0-0.25% in five steps of 0.05, labels with two decimals.
    expect(percentAxis([0.12, 0.2, 0.18])).toEqual({ max: 0.25, tickAmount: 5, decimals: 2 });
    expect(percentAxis([3.3])).toEqual({ max: 4, tickAmount: 4, decimals: 0 });
    expect(percentAxis([0.9])).toEqual({ max: 1, tickAmount: 5, decimals: 1 });
    // No data (or only zeros): 0-1%.
    expect(percentAxis([])).toEqual({ max: 1, tickAmount: 5, decimals: 1 });
    expect(percentAxis([0, 0])).toEqual({ max: 1, tickAmount: 5, decimals: 1 });
    for (const v of [0.004, 0.2, 1, 7, 13, 42, 61, 88]) {
      const { max } = percentAxis([v]);
      expect(max, String(v)).toBeGreaterThanOrEqual(v * 1.1 - 1e-9);
      expect(max, String(v)).toBeLessThanOrEqual(Math.min(100, v * 2.5));
    }
  });
});
