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
    });
    expect(writeAlertListState(s, TODAY).toString()).toBe('');
  });

  it('round-trips descriptor, chosen dates, search and sort', () => {
    const search =
      'descriptor=ACME*SHOP&from=2026-01-01&to=2026-01-31&search=ord&sort_by=alert_id&sort_order=desc';
    const s = read(search);
    expect(s).toEqual({
      descriptor: 'ACME*SHOP',
      search: 'ord',
      range: { from: '2026-01-01', to: '2026-01-31' },
      sort: { colId: 'alert_id', sort: 'desc' },
    });
    expect(writeAlertListState(s, TODAY).toString()).toBe(new URLSearchParams(search).toString());
  });

  it('falls back to defaults for refused values', () => {
    const s = read('from=2026-1-1&to=2026-01-31&sort_by=password&sort_order=up&search=' + 'x'.repeat(201));
    expect(s.range).toEqual({ from: '2026-11-19', to: '2026-11-26' });
    expect(s.sort).toBeUndefined();
    expect(s.search).toBe('');
    expect(read('sort_by=outcome').sort).toEqual({ colId: 'outcome', sort: 'asc' });
  });
});
