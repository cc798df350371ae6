import { CASE_SORT_COLUMNS, CaseListViewQuery, readListQuery } from '@portal/contracts';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { CaseQuery } from '../api/get-cases';
import { DEFAULT_EXPIRE_DAYS, PANEL_KEYS, type PanelKey } from './panel-filters';

/**
 * The query state of a case list lives in the URL (issue 21): a copied link
 * opens the same list, Back steps through filter, tab, sort and page changes,
 * a saved view is this search string. Dialogs, notices and the selection stay
 * in the component.
 *
 * The URL carries the `GET /cm/cases` parameters by their own names (search,
 * sort_by, sort_order, start, limit, primary_case_due_days and the advanced
 * search's filters) plus `tab` and `panel`; it is read against the contracts'
 * CaseListViewQuery schema (CaseListQuery's fields), and a value the schema refuses falls back to its
 * default. Defaults are left out, so the plain route is the default list.
 */
export const PAGE_SIZES = [10, 25, 50, 100];
const DEFAULT_PAGE_SIZE = 50;

/** URL keys of the list's own controls; every other key of CaseListViewQuery is an advanced search filter. */
const CONTROL_KEYS = new Set([
  'tab',
  'panel',
  'primary_case_due_days',
  'search',
  'sort_by',
  'sort_order',
  'start',
  'limit',
]);
const URL_KEYS = Object.keys(CaseListViewQuery.properties);
const ADVANCED_KEYS = URL_KEYS.filter((k) => !CONTROL_KEYS.has(k));
const SORTABLE = new Set<string>(CASE_SORT_COLUMNS);

export interface CaseSort {
  colId: string;
  sort: 'asc' | 'desc';
}

export interface CaseListState {
  /** The tab's key, or null for lists without tabs. */
  tab: string | null;
  /** The applied search (trimmed). */
  search: string;
  sort: CaseSort | undefined;
  /** Page index from 0. */
  page: number;
  pageSize: number;
  panel: PanelKey | null;
  /** The expire-days of the filter panel. */
  days: number;
  /** The applied advanced search as /cm/cases parameters; null when none is applied. */
  advanced: CaseQuery | null;
}

export interface UpdateOptions {
  /** Replace the history entry instead of adding one (typing, corrections). */
  replace?: boolean;
}

/** Reads a list's state from its URL search string; anything invalid reads as the default. */
export function readCaseListState(params: URLSearchParams, tabKeys: readonly string[]): CaseListState {
  const q: Partial<CaseListViewQuery> & Record<string, unknown> = readListQuery(CaseListViewQuery, params);
  const tab = typeof q.tab === 'string' && tabKeys.includes(q.tab) ? q.tab : (tabKeys[0] ?? null);
  const pageSize = PAGE_SIZES.includes(q.limit ?? -1) ? q.limit! : DEFAULT_PAGE_SIZE;
  const advanced: Record<string, unknown> = {};
  for (const key of ADVANCED_KEYS) if (q[key] !== undefined) advanced[key] = q[key];
  return {
    tab,
    search: q.search?.trim() ?? '',
    sort:
      q.sort_by && SORTABLE.has(q.sort_by) ? { colId: q.sort_by, sort: q.sort_order ?? 'asc' } : undefined,
    page: Math.floor((q.start ?? 0) / pageSize),
    pageSize,
    panel: (PANEL_KEYS as readonly string[]).includes(q.panel ?? '') ? (q.panel as PanelKey) : null,
    days: q.primary_case_due_days ?? DEFAULT_EXPIRE_DAYS,
    advanced: Object.keys(advanced).length ? (advanced as CaseQuery) : null,
  };
}

/** The state as URL parameters, defaults left out, in a fixed order (equal states give equal links). */
export function writeCaseListState(state: CaseListState, tabKeys: readonly string[]): URLSearchParams {
  const p = new URLSearchParams();
  if (state.tab && state.tab !== tabKeys[0]) p.set('tab', state.tab);
  if (state.panel) p.set('panel', state.panel);
  if (state.days !== DEFAULT_EXPIRE_DAYS) p.set('primary_case_due_days', String(state.days));
  if (state.search) p.set('search', state.search);
  for (const key of ADVANCED_KEYS) {
    const value = (state.advanced as Record<string, unknown> | null)?.[key];
    if (value !== undefined && value !== null && value !== '') p.set(key, String(value));
  }
  if (state.sort) {
    p.set('sort_by', state.sort.colId);
    p.set('sort_order', state.sort.sort);
  }
  if (state.page > 0) p.set('start', String(state.page * state.pageSize));
  if (state.pageSize !== DEFAULT_PAGE_SIZE) p.set('limit', String(state.pageSize));
  return p;
}

/** History state of an entry written by the search box: the next keystrokes replace it. */
const SEARCH_ENTRY = 'caseListSearch';

/**
 * The one hook of a case list's query state. Every change but paging starts
 * again from page one. Changes add a history entry; typing in the search box
 * adds one for the first debounced write and replaces it while typing goes on.
 */
export function useCaseListState(tabKeys: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const tabsKey = tabKeys.join(',');
  const search = params.toString();
  // Parsed again only when the URL or the tabs change; tabKeys is compared by value (tabsKey).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const state = useMemo(() => readCaseListState(new URLSearchParams(search), tabKeys), [search, tabsKey]);
  const searchEntry = (location.state as Record<string, unknown> | null)?.[SEARCH_ENTRY] === true;

  const update = useCallback(
    (patch: Partial<CaseListState>, options: UpdateOptions & { searchEdit?: boolean } = {}) => {
      // From the URL as it is now, not as this render saw it: a click landing while the router's
      // transition is still rendering the last change must not undo that change.
      const live = new URLSearchParams(window.location.search).toString();
      const next: CaseListState = {
        ...readCaseListState(new URLSearchParams(live), tabKeys),
        page: 0,
        ...patch,
      };
      const written = writeCaseListState(next, tabKeys);
      // Parameters that are not the list's (none today) stay as they are.
      for (const [k, v] of new URLSearchParams(live)) if (!URL_KEYS.includes(k)) written.append(k, v);
      if (written.toString() === live) return;
      setParams(written, {
        replace: options.replace ?? (options.searchEdit ? searchEntry : false),
        state: options.searchEdit ? { [SEARCH_ENTRY]: true } : null,
      });
    },
    // tabKeys is compared by value (tabsKey).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tabsKey, setParams, searchEntry],
  );

  return useMemo(
    () => ({
      state,
      /** The list's canonical search string (a saved view's query). */
      query: writeCaseListState(state, tabKeys).toString(),
      setTab: (tab: string | null) => update({ tab }),
      setSearch: (text: string) => update({ search: text.trim() }, { searchEdit: true }),
      setSort: (sort: CaseSort | undefined, options?: UpdateOptions) => update({ sort }, options),
      setPage: (page: number, options?: UpdateOptions) => update({ page }, options),
      setPageSize: (pageSize: number) => update({ pageSize }),
      /** A filter panel row; `clearAdvanced` once the user agreed to overwrite the advanced search. */
      choosePanel: (panel: PanelKey, clearAdvanced = false) =>
        update(clearAdvanced ? { panel, advanced: null } : { panel }),
      // Typed in the panel: corrections replace the entry; the list changes only under its expire row.
      setDays: (days: number) =>
        update({ days, page: state.panel === 'expire' ? 0 : state.page }, { replace: true }),
      resetPanel: () => update({ panel: null, days: DEFAULT_EXPIRE_DAYS }),
      /** Applying an advanced search replaces the panel filter; null clears it. */
      setAdvanced: (advanced: CaseQuery | null) =>
        update(advanced ? { advanced, panel: null } : { advanced: null }),
    }),
    // tabKeys is compared by value (tabsKey).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [state, update, tabsKey],
  );
}

export type CaseListStateApi = ReturnType<typeof useCaseListState>;
