import { describe, expect, it } from 'vitest';
import { amountRangeError, formatAmountRange, formatJobDate } from './job-format';

describe('bulk job formats', () => {
  it.each([
    ['2024-06-01T15:05:00Z', '1st of June 2024 at 3:05pm'],
    ['2024-06-02T00:30:00Z', '2nd of June 2024 at 12:30am'],
    ['2024-06-13T09:00:00Z', '13th of June 2024 at 9:00am'],
    ['2024-12-23T12:00:00Z', '23rd of December 2024 at 12:00pm'],
  ])('formats %s', (iso, text) => expect(formatJobDate(iso, 'UTC')).toBe(text));
  it('formats amount ranges', () => expect(formatAmountRange(1, 25.5)).toBe('1.00 - 25.50'));
  it.each([
    ['', '', null],
    ['1', '', 'Invalid amount entered.'],
    ['1.234', '5', 'Invalid amount entered.'],
    ['abc', '5', 'Invalid amount entered.'],
    ['10', '5', 'The maximum value cannot be lower than the minimum value.'],
    ['5', '5.00', null],
  ])('amount range %s-%s', (min, max, error) => expect(amountRangeError(min, max)).toBe(error));
});
