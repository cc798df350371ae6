import { describe, expect, it } from 'vitest';
import { splitByMonth } from './report-range';

describe('splitByMonth', () => {
  it('reads whole months from the monthly rollup and the edge days from the daily one', () => {
    expect(splitByMonth({ from: '2026-05-30', to: '2026-11-26' })).toEqual({
      months: { first: '2026-06-01', last: '2026-10-01' },
      days: [
        { from: '2026-05-30', to: '2026-05-31' },
        { from: '2026-11-01', to: '2026-11-26' },
      ],
    });
  });

  it('needs no edge when the range starts and ends with its months (leap February included)', () => {
    expect(splitByMonth({ from: '2024-01-01', to: '2024-02-29' })).toEqual({
      months: { first: '2024-01-01', last: '2024-02-01' },
      days: [],
    });
    expect(splitByMonth({ from: '2025-12-01', to: '2026-01-31' })).toEqual({
      months: { first: '2025-12-01', last: '2026-01-01' },
      days: [],
    });
  });

  it('keeps a range without a whole month as days', () => {
    const inside = { from: '2026-03-02', to: '2026-03-30' };
    expect(splitByMonth(inside)).toEqual({ months: null, days: [inside] });
    const across = { from: '2026-03-15', to: '2026-04-10' };
    expect(splitByMonth(across)).toEqual({ months: null, days: [across] });
    const oneDay = { from: '2026-03-01', to: '2026-03-01' };
    expect(splitByMonth(oneDay)).toEqual({ months: null, days: [oneDay] });
  });

  it('reads the last month whole when nothing is dated after the range (latest day reached)', () => {
    const year = { from: '2025-11-28', to: '2026-11-28' };
    expect(splitByMonth(year, '2026-11-28')).toEqual({
      months: { first: '2025-12-01', last: '2026-11-01' },
      days: [{ from: '2025-11-28', to: '2025-11-30' }],
    });
    expect(splitByMonth(year, '2026-11-02').months).toEqual({ first: '2025-12-01', last: '2026-11-01' });
    // A case dated after the range's end: its month's days are read one by one.
    expect(splitByMonth(year, '2026-11-29')).toEqual(splitByMonth(year));
    const across = { from: '2026-03-15', to: '2026-04-10' };
    expect(splitByMonth(across, '2026-04-09')).toEqual({
      months: { first: '2026-04-01', last: '2026-04-01' },
      days: [{ from: '2026-03-15', to: '2026-03-31' }],
    });
    // A range not starting on the first of its month stays days.
    const inside = { from: '2026-03-02', to: '2026-03-30' };
    expect(splitByMonth(inside, '2026-03-30')).toEqual({ months: null, days: [inside] });
  });
});
