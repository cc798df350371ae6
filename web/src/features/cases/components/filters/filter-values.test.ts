import type { AdvancedFilterField } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { initialValues, toQuery } from './filter-values';
import { clampPage, offersPageSizes, pageCount } from './paging';

const field = (f: Partial<AdvancedFilterField> & Pick<AdvancedFilterField, 'alias' | 'type'>) =>
  ({ label: f.alias, is_enabled: true, ...f }) as AdvancedFilterField;

const FIELDS = [
  field({ alias: 'case_no', type: 'text' }),
  field({ alias: 'mid', type: 'userDefinedMultiSelect' }),
  field({ alias: 'reason_code_id', type: 'select', endpoint: '/cm/gen/rc', is_multiple_choice: true }),
  field({ alias: 'cc_type', type: 'select', endpoint: '/cm/gen/cctypes' }),
  field({
    alias: 'is_fraud',
    type: 'select',
    default_options: [
      { value: 1, label: 'Yes' },
      { value: 0, label: 'No' },
    ],
    initial_value: 0,
  }),
  field({ alias: 'dispute_amt', type: 'amount', initial_compare_value: 'lte' }),
  field({ alias: 'date_post', type: 'date' }),
  field({ alias: 'date_due', type: 'due-date', initial_value: '2026-01-01|2026-01-31' }),
];

describe('initialValues', () => {
  it('starts from initial_value, with default_options labels, and a blank operator without an amount', () => {
    const v = initialValues(FIELDS);
    expect(v.is_fraud).toEqual([{ value: '0', label: 'No' }]);
    expect(v.dispute_amt).toBe('');
    expect(v.dispute_amt_operator).toBe('');
    expect(v.date_due_from).toBe('2026-01-01');
    expect(v.date_due_to).toBe('2026-01-31');
    expect(v.mid).toEqual([]);
  });
});

describe('toQuery', () => {
  it('maps every field type to its list parameter', () => {
    const q = toQuery(FIELDS, {
      ...initialValues(FIELDS),
      case_no: ' CB-1 ',
      mid: ['5401', '5402'],
      reason_code_id: [
        { value: '3', label: 'Visa - 10.4' },
        { value: '8', label: 'Visa - 13.1' },
      ],
      cc_type: [{ value: '2', label: 'Mastercard' }],
      dispute_amt: '25.5',
      dispute_amt_operator: '<',
      date_post_from: '2025-01-01',
      date_post_to: '2025-02-01',
    });
    expect(q).toEqual({
      case_no: 'CB-1',
      mid: '5401,5402',
      reason_code_id: '3,8',
      card_type_id: 2,
      is_fraud: 0,
      dispute_amt: 25.5,
      dispute_amt_operator: '<',
      date_range: '2025-01-01|2025-02-01',
      due_date_range: '2026-01-01|2026-01-31',
    });
  });

  it('sends no operator without its amount, and the configured one when none was chosen', () => {
    const base = initialValues(FIELDS);
    expect(toQuery(FIELDS, { ...base, dispute_amt_operator: '>' })).not.toHaveProperty(
      'dispute_amt_operator',
    );
    expect(toQuery(FIELDS, { ...base, dispute_amt: '10' })).toMatchObject({
      dispute_amt: 10,
      dispute_amt_operator: '<=',
    });
    expect(toQuery(FIELDS, { ...base, dispute_amt: '-3' })).not.toHaveProperty('dispute_amt');
  });

  it('sends a date range only with both ends', () => {
    expect(toQuery(FIELDS, { ...initialValues(FIELDS), date_post_from: '2025-01-01' })).not.toHaveProperty(
      'date_range',
    );
  });
});

describe('paging', () => {
  it('counts pages, at least one', () => {
    expect(pageCount(0, 5)).toBe(1);
    expect(pageCount(11, 5)).toBe(3);
    expect(pageCount(25, 25)).toBe(1);
  });
  it('holds a page number between 1 and the page count', () => {
    expect(clampPage(9, 3)).toBe(3);
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(-4, 3)).toBe(1);
    expect(clampPage(2.7, 3)).toBe(2);
    expect(clampPage(Number.NaN, 3)).toBe(1);
  });
  it('offers page sizes only above 5 options', () => {
    expect(offersPageSizes(5)).toBe(false);
    expect(offersPageSizes(6)).toBe(true);
  });
});
