import type { AdvancedFilterField } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { MERCHANT_FEATURE } from '../api/get-merchant-features';
import { visibleFields } from './advanced-search';

const field = (alias: string, more: Partial<AdvancedFilterField> = {}) =>
  ({
    alias,
    label: alias,
    type: 'select',
    endpoint: '/cm/gen/x',
    is_enabled: true,
    ...more,
  }) as AdvancedFilterField;

const FIELDS = [
  field('reason_code_id'),
  field('verdict_id'),
  field('outcome', { alias_override: 'verdict_id' }),
  field('order_id', { type: 'text', is_enabled: false }),
];
const aliases = (fs: AdvancedFilterField[]) => fs.map((f) => f.alias);

describe('visibleFields', () => {
  it('offers the verdict filter only when the merchant has outcome verdicts (feature 2)', () => {
    expect(aliases(visibleFields(FIELDS, new Set([MERCHANT_FEATURE.verdicts])))).toEqual([
      'reason_code_id',
      'verdict_id',
      'outcome',
    ]);
    expect(aliases(visibleFields(FIELDS, new Set([1, 3])))).toEqual(['reason_code_id']);
  });

  it('hides the verdict filter while the features load', () => {
    expect(aliases(visibleFields(FIELDS, undefined))).toEqual(['reason_code_id']);
  });

  it('drops disabled fields', () => {
    expect(aliases(visibleFields(FIELDS, new Set([2])))).not.toContain('order_id');
  });
});
