import { describe, expect, it } from 'vitest';
import { readAlertListState, writeAlertListState } from './use-alert-list-state';

const TODAY = new Date(2026, 10, 26);
const read = (search: string) => readAlertListState(new URLSearchParams(search), TODAY);

describe('alerts grid URL state', () => {
  it('reads the plain route as the last 7 days, and leaves that default out of the link', () => {
    const s = read('');
    expect(s).toEqual({
      descriptor: '',
      search: '',
      range: { from: '2026-11-19', to: '2026-11-26' },
      sort: undefined,
      page: 0,
    });
    expect(writeAlertListState(s, TODAY).toString()).toBe('');
  });

  it('round-trips descriptor, chosen dates, search, sort and page', () => {
    const search =
      'descriptor=ACME*SHOP&from=2026-01-01&to=2026-01-31&search=ord&sort_by=alert_id&sort_order=desc&start=100';
    const s = read(search);
    expect(s).toEqual({
      descriptor: 'ACME*SHOP',
      search: 'ord',
      range: { from: '2026-01-01', to: '2026-01-31' },
      sort: { colId: 'alert_id', sort: 'desc' },
      page: 2,
    });
    expect(writeAlertListState(s, TODAY).toString()).toBe(new URLSearchParams(search).toString());
    // An offset inside a page opens that page.
    expect(read('start=149').page).toBe(2);
  });

  it('falls back to defaults for refused values', () => {
    const s = read(
      'from=2026-1-1&to=2026-01-31&sort_by=password&sort_order=up&start=-50&search=' + 'x'.repeat(201),
    );
    expect(s.page).toBe(0);
    expect(s.range).toEqual({ from: '2026-11-19', to: '2026-11-26' });
    expect(s.sort).toBeUndefined();
    expect(s.search).toBe('');
    expect(read('sort_by=outcome').sort).toEqual({ colId: 'outcome', sort: 'asc' });
  });
});
