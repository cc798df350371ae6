import { describe, expect, it } from 'vitest';
import { readCaseListState, writeCaseListState, type CaseListState } from './use-case-list-state';

const TABS = ['working_cases', 'new_cases', 'completed'];
const read = (search: string, tabs = TABS) => readCaseListState(new URLSearchParams(search), tabs);

describe('case list URL state', () => {
  it('reads the plain route as the default list', () => {
    expect(read('')).toEqual({
      tab: 'working_cases',
      search: '',
      sort: undefined,
      page: 0,
      pageSize: 50,
      panel: null,
      days: 7,
      advanced: null,
    });
    expect(read('', []).tab).toBeNull();
  });

  it('round-trips every part of the state, defaults left out', () => {
    const state: CaseListState = {
      tab: 'new_cases',
      search: 'acme',
      sort: { colId: 'date_post', sort: 'desc' },
      page: 2,
      pageSize: 25,
      panel: 'expire',
      days: 12,
      advanced: {
        status_id: '1,2',
        dispute_amt: 10.5,
        dispute_amt_operator: '>=',
        date_range: '2026-01-01|2026-02-01',
      },
    };
    const search = writeCaseListState(state, TABS).toString();
    expect(search).toBe(
      'tab=new_cases&panel=expire&primary_case_due_days=12&search=acme&status_id=1%2C2&date_range=2026-01-01%7C2026-02-01&dispute_amt=10.5&dispute_amt_operator=%3E%3D&sort_by=date_post&sort_order=desc&start=50&limit=25',
    );
    expect(read(search)).toEqual(state);
    expect(writeCaseListState(read(''), TABS).toString()).toBe('');
  });

  it('falls back to defaults for values the schema refuses, field by field', () => {
    const s = read(
      'tab=nope&panel=bogus&primary_case_due_days=0&sort_by=password&sort_order=up&start=-5&limit=7&status_id=1;drop&dispute_amt=abc&search=ok&cycle=1',
    );
    expect(s).toMatchObject({
      tab: 'working_cases',
      panel: null,
      days: 7,
      sort: undefined,
      page: 0,
      pageSize: 50,
    });
    expect(s.search).toBe('ok');
    expect(s.advanced).toEqual({ cycle: '1' });
    // NUL and oversized values are dropped, not sent.
    expect(read(`search=${encodeURIComponent('a\u0000b')}`).search).toBe('');
    expect(read(`search=${'x'.repeat(201)}`).search).toBe('');
    expect(read('start=99999999999999').page).toBe(0);
  });

  it('keeps the sort order default and pages by the page size', () => {
    expect(read('sort_by=case_no').sort).toEqual({ colId: 'case_no', sort: 'asc' });
    expect(read('start=110&limit=50').page).toBe(2);
  });
});
