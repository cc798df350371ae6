import { describe, expect, it } from 'vitest';
import { clampRange, daysBetween, lastDays, toIsoDate } from './dates';
import { formatCount, formatMoney, formatNumber, formatPercent } from './format';

describe('formatting (spec 1 §9: US format, two decimals)', () => {
  it('formats money and numbers', () => {
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatMoney(-5)).toBe('-$5.00');
    expect(formatNumber(1234.5)).toBe('1,234.50');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatPercent(0.5, true)).toBe('50.00%');
    expect(formatMoney(null)).toBe('');
  });
  it('date ranges: last 90 days, no future dates', () => {
    const today = new Date(2026, 10, 21);
    const r = lastDays(90, today);
    expect(r).toEqual({ from: '2026-08-23', to: '2026-11-21' });
    expect(daysBetween(r)).toBe(90);
    expect(clampRange({ from: '2026-11-25', to: '2026-12-01' }, today)).toEqual({
      from: '2026-11-21',
      to: '2026-11-21',
    });
    expect(toIsoDate(today)).toBe('2026-11-21');
  });
});
