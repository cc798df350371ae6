import {
  ALERTS_DEFAULT_DAYS,
  ALERT_SORT_COLUMNS,
  AlertListViewQuery,
  readListQuery,
  type AlertSortColumn,
} from '@portal/contracts';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { lastDays, type DateRange } from '../../../lib/dates';

/**
 * The alerts grid's query state in the URL (issue 21), like the case lists':
 * descriptor, date range (from, to), search, sort and page (as the API's
 * start offset), read against the contracts' AlertListViewQuery schema (a
 * refused value reads as its default). Filter, sort and page changes add a
 * history entry (a filter or sort starts again from page one); the search box
 * adds one for its first debounced write and replaces it while typing goes on.
 */
export interface AlertSort {
  colId: AlertSortColumn;
  sort: 'asc' | 'desc';
}

export interface AlertListState {
  descriptor: string;
  search: string;
  /** The date range; the last 7 days when the URL has none (or half of one). */
  range: DateRange;
  sort: AlertSort | undefined;
  /** 0-based, pages of ALERTS_PAGE_SIZE. */
  page: number;
}

/** The grid's page size (spec 2 §2.9). */
export const ALERTS_PAGE_SIZE = 50;

const URL_KEYS = ['descriptor', 'from', 'to', 'search', 'sort_by', 'sort_order', 'start'];
const SORTABLE = new Set<string>(ALERT_SORT_COLUMNS);
const SEARCH_ENTRY = 'alertListSearch';

export function readAlertListState(params: URLSearchParams, today = new Date()): AlertListState {
  const q: Partial<AlertListViewQuery> = readListQuery(AlertListViewQuery, params);
  return {
    descriptor: q.descriptor ?? '',
    search: q.search?.trim() ?? '',
    range: q.from && q.to ? { from: q.from, to: q.to } : lastDays(ALERTS_DEFAULT_DAYS, today),
    sort:
      q.sort_by && SORTABLE.has(q.sort_by) ? { colId: q.sort_by, sort: q.sort_order ?? 'asc' } : undefined,
    page: Math.floor((q.start ?? 0) / ALERTS_PAGE_SIZE),
  };
}

/**
 * The state as URL parameters. The default range is left out, so a link or a
 * view without dates keeps meaning 'the last 7 days' whenever it is opened.
 */
export function writeAlertListState(state: AlertListState, today = new Date()): URLSearchParams {
  const p = new URLSearchParams();
  const fallback = lastDays(ALERTS_DEFAULT_DAYS, today);
  if (state.descriptor) p.set('descriptor', state.descriptor);
  if (state.range.from !== fallback.from || state.range.to !== fallback.to) {
    p.set('from', state.range.from);
    p.set('to', state.range.to);
  }
  if (state.search) p.set('search', state.search);
  if (state.sort) {
    p.set('sort_by', state.sort.colId);
    p.set('sort_order', state.sort.sort);
  }
  if (state.page > 0) p.set('start', String(state.page * ALERTS_PAGE_SIZE));
  return p;
}

export function useAlertListState() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const current = params.toString();
  const state = useMemo(() => readAlertListState(new URLSearchParams(current)), [current]);
  const searchEntry = (location.state as Record<string, unknown> | null)?.[SEARCH_ENTRY] === true;

  const update = useCallback(
    (patch: Partial<AlertListState>, searchEdit = false, flushSync = false) => {
      // From the URL as it is now (a change may still be rendering), not as this render saw it.
      const live = new URLSearchParams(window.location.search).toString();
      const written = writeAlertListState({ ...readAlertListState(new URLSearchParams(live)), ...patch });
      for (const [k, v] of new URLSearchParams(live)) if (!URL_KEYS.includes(k)) written.append(k, v);
      if (written.toString() === live) return;
      setParams(written, {
        replace: searchEdit ? searchEntry : false,
        state: searchEdit ? { [SEARCH_ENTRY]: true } : null,
        flushSync,
      });
    },
    [setParams, searchEntry],
  );

  return useMemo(
    () => ({
      state,
      /** The grid's canonical search string (a saved view's query). */
      query: writeAlertListState(state).toString(),
      setDescriptor: (descriptor: string) => update({ descriptor, page: 0 }),
      setRange: (range: DateRange) => update({ range, page: 0 }),
      setSearch: (text: string) => update({ search: text.trim(), page: 0 }, true),
      setSort: (sort: AlertSort | undefined) => update({ sort, page: 0 }),
      // The grid has already turned the page: the URL follows at once (not as a transition that a quick Back
      // could fold away, leaving the grid on a page the URL never showed).
      setPage: (page: number) => update({ page }, false, true),
    }),
    [state, update],
  );
}
