import {
  InfiniteRowModelModule,
  ModuleRegistry,
  PaginationModule,
  ValidationModule,
  type ColDef,
  type GridApi,
  type IDatasource,
  type PaginationChangedEvent,
  type SortChangedEvent,
  type SortModelItem,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useRef } from 'react';
import { cspNonce } from '../lib/csp-nonce';
import { fitContent, fitHeaders, GRID_THEME, useContentFit } from './grid-fit';
import { keysToCellControls } from './grid-keys';

// Community only; only the modules used (TOOLCHAIN). ValidationModule in development for readable errors.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  PaginationModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

/** Columns share the width (flex) but never get narrower than their header text (fitHeaders). */
const DEFAULT_COL: ColDef = {
  sortable: true,
  resizable: true,
  flex: 1,
  minWidth: 90,
  // A row menu's trigger in a cell opens with ArrowDown instead of the grid moving on (issue 29.5).
  suppressKeyboardEvent: keysToCellControls,
};

export interface PageRequest {
  start: number;
  limit: number;
  sort?: SortModelItem;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
  /** The server stopped counting at `total` (more may match): the pager reads 'of more' until the last page comes. */
  totalIsLowerBound?: boolean;
}

/**
 * Server-side paging and sorting with the infinite row model and AG Grid's
 * pager. `fetchPage` is called per page; changing `queryKey` (filters, search,
 * date range) reloads from the first page. A failed load shows an empty grid.
 * `page` (0-based, e.g. from the URL) is shown once the grid knows enough
 * rows for it; `onPageChanged` hears the pages the user turns to.
 */
export function DataGrid<T>({
  columns,
  fetchPage,
  queryKey,
  pageSize = 25,
  height = 420,
  testId,
  noRowsText = 'No Records Found!',
  onSortChanged,
  page = 0,
  onPageChanged,
}: {
  columns: ColDef<T>[];
  fetchPage: (req: PageRequest) => Promise<PageResult<T>>;
  queryKey: string;
  pageSize?: number;
  height?: number;
  testId?: string;
  /** The empty grid's text (spec 2 §8 'Grid empties'). */
  noRowsText?: string;
  /** A sort the user chose by a header click (not one the column definitions apply). */
  onSortChanged?: (sort: SortModelItem | undefined) => void;
  page?: number;
  onPageChanged?: (page: number) => void;
}) {
  const apiRef = useRef<GridApi<T> | null>(null);
  /** A page asked for by the `page` prop that the grid has not shown yet (its rows may not be counted yet). */
  const pendingPage = useRef<number | null>(page > 0 ? page : null);
  const fetchRef = useRef(fetchPage);
  useEffect(() => {
    fetchRef.current = fetchPage;
  }, [fetchPage]);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params) => {
        const limit = params.endRow - params.startRow;
        fetchRef
          .current({ start: params.startRow, limit, sort: params.sortModel[0] })
          .then((r) => {
            // A lower-bound total leaves the row count open (the pager reads 'of more') until a short page.
            const lastRow = !r.totalIsLowerBound
              ? r.total
              : r.rows.length < limit
                ? params.startRow + r.rows.length
                : undefined;
            params.successCallback(r.rows, lastRow);
          })
          .catch(() => params.successCallback([], 0));
      },
    }),
    // A new key is a new datasource: the grid reloads from page one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );

  useEffect(() => {
    apiRef.current?.setGridOption('datasource', datasource);
  }, [datasource]);

  /** Goes to the pending page when the grid has counted rows up to it (the last page when there are fewer). */
  const showPendingPage = (api: GridApi<T>) => {
    const wanted = pendingPage.current;
    if (wanted === null) return;
    const pages = api.paginationGetTotalPages();
    const last = api.paginationIsLastPageFound();
    if (wanted < pages || last) {
      pendingPage.current = null;
      const target = Math.min(wanted, Math.max(pages - 1, 0));
      if (target !== api.paginationGetCurrentPage()) api.paginationGoToPage(target);
    } else if (pages > 0) {
      // The infinite model counts rows as it loads blocks: step towards the page.
      api.paginationGoToPage(pages - 1);
    }
  };

  // Back and Forward change the page from outside.
  useEffect(() => {
    const api = apiRef.current;
    if (!api || api.paginationGetCurrentPage() === page) return;
    pendingPage.current = page;
    showPendingPage(api);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page]);

  // Columns as wide as their header and, once rows show, their content (up to a limit): a grid
  // wider than its box scrolls sideways.
  const { boxRef, contentWidths, fit: fitToContent } = useContentFit();
  const fitted = useMemo(
    () => fitContent(fitHeaders(columns, DEFAULT_COL as ColDef<T>), contentWidths),
    [columns, contentWidths],
  );

  return (
    <div style={{ height }} data-testid={testId} ref={boxRef}>
      <AgGridReact<T>
        theme={GRID_THEME}
        columnDefs={fitted}
        defaultColDef={DEFAULT_COL as ColDef<T>}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={pageSize}
        maxBlocksInCache={4}
        pagination
        paginationPageSize={pageSize}
        paginationPageSizeSelector={false}
        onGridReady={(e) => {
          apiRef.current = e.api;
        }}
        onFirstDataRendered={fitToContent}
        onModelUpdated={fitToContent}
        // Every column drawn, so that each is measured (a page holds at most a few dozen rows).
        suppressColumnVirtualisation
        onPaginationChanged={(e: PaginationChangedEvent<T>) => {
          if (pendingPage.current !== null) showPendingPage(e.api);
          else if (e.newPage) onPageChanged?.(e.api.paginationGetCurrentPage());
        }}
        onSortChanged={(e: SortChangedEvent<T>) => {
          if (e.source !== 'uiColumnSorted' || !onSortChanged) return;
          const col = e.columns?.find((c) => c.getSort());
          onSortChanged(col ? { colId: col.getColId(), sort: col.getSort()! } : undefined);
        }}
        overlayNoRowsTemplate={noRowsText.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`)}
        styleNonce={cspNonce()}
      />
    </div>
  );
}
