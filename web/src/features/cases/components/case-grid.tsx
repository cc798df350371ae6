import type { CaseRow } from '@portal/contracts';
import {
  CellStyleModule,
  CsvExportModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  PaginationModule,
  RowApiModule,
  RowSelectionModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type GridApi,
  type CellKeyDownEvent,
  type FullWidthCellKeyDownEvent,
  type GridReadyEvent,
  type ICellRendererParams,
  type PaginationChangedEvent,
  type SelectionChangedEvent,
  type IDatasource,
  type SortModelItem,
  type GetRowIdParams,
  type RowSelectionOptions,
  type SelectionColumnDef,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import {
  createContext,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { cellText, UNSORTABLE, type CaseColumn } from '../lib/case-columns';
import { RowMenuContext, type OpenRowMenu } from '../lib/row-menu-state';
import { cspNonce } from '../../../lib/csp-nonce';

// Community only, only the modules used (TOOLCHAIN); CSV export is Community. RowApi gives
// getDisplayedRowAtIndex (the page's rows for Copy, Print and PDF), CellStyle the cellClass
// and cellStyle of money and action cells: without them AG Grid only logs error #200.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  PaginationModule,
  RowSelectionModule,
  RowApiModule,
  CellStyleModule,
  CsvExportModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

export interface CasePageRequest {
  start: number;
  limit: number;
  sort?: SortModelItem;
}

export interface CaseGridHandle {
  /** Rows of the page on screen. */
  pageRows(): CaseRow[];
  selectedRows(): CaseRow[];
  clearSelection(): void;
  /** Reloads the cached pages (after a write), keeping the page. */
  refresh(): void;
  /** AG Grid Community CSV of the page on screen. */
  exportPageCsv(columns: CaseColumn[], fileName: string): void;
  currentSort(): SortModelItem | undefined;
  /** Index of the first row of the page on screen. */
  pageStart(): number;
}

export interface CaseGridProps {
  columns: CaseColumn[];
  hidden: ReadonlySet<string>;
  fetchPage: (req: CasePageRequest) => Promise<{ rows: CaseRow[]; total: number }>;
  /** A new key reloads from page one (filters, search, tab). */
  queryKey: string;
  pageSize: number;
  /** Multi-select of status-1 (New) cases for bulk actions. */
  selectable: boolean;
  renderCell: (kind: CaseColumn['kind'], row: CaseRow) => ReactNode;
  onSelectionChanged?: (rows: CaseRow[]) => void;
  onCellCopy?: (value: string) => void;
  onLoaded?: (rows: CaseRow[], total: number) => void;
  height?: number;
}

// Cells read renderCell from React context, not from AG Grid's `context` option: cell
// params keep the value of the moment the cell was drawn, so a later renderCell (stack
// config loaded, read-only known) would reach a row only after it is redrawn.
const RenderCellContext = createContext<CaseGridProps['renderCell'] | null>(null);

function CustomCell(p: ICellRendererParams<CaseRow> & { kind: CaseColumn['kind'] }) {
  const renderCell = useContext(RenderCellContext);
  if (!p.data || !renderCell) return null;
  return <>{renderCell(p.kind, p.data)}</>;
}

// Stable option objects: new ones on every render make the grid redraw its cells (and close open row menus).
const DEFAULT_COL: ColDef<CaseRow> = { resizable: true };
const SELECTION_COLUMN: SelectionColumnDef = { pinned: 'left', width: 50, lockPinned: true };
const rowId = (p: GetRowIdParams<CaseRow>) => String(p.data.id);

/** Rows of the page on screen. */
function pageRowsOf(api: GridApi<CaseRow>): CaseRow[] {
  const size = api.paginationGetPageSize();
  const first = api.paginationGetCurrentPage() * size;
  const rows: CaseRow[] = [];
  for (let i = first; i < first + size; i++) {
    const node = api.getDisplayedRowAtIndex(i);
    if (node?.data) rows.push(node.data);
  }
  return rows;
}

const CUSTOM = new Set<CaseColumn['kind']>([
  'flag',
  'document',
  'actions',
  'assigned-icon',
  'assign-control',
]);

/**
 * The case grid: AG Grid infinite row model with its pager, server-side
 * paging and sorting, a page size the parent owns (a new size remounts the
 * grid), pinned/locked columns and multi-select of New cases.
 */
export const CaseGrid = forwardRef<CaseGridHandle, CaseGridProps>(function CaseGrid(props, ref) {
  const apiRef = useRef<GridApi<CaseRow> | null>(null);
  const fetchRef = useRef(props.fetchPage);
  const loadedRef = useRef(props.onLoaded);
  // The sort of the last page asked (the column-state API needs a module we do not register).
  const sortRef = useRef<SortModelItem | undefined>(undefined);
  const selectionRef = useRef(props.onSelectionChanged);
  const copyRef = useRef(props.onCellCopy);
  const columnsRef = useRef(props.columns);
  useEffect(() => {
    fetchRef.current = props.fetchPage;
    loadedRef.current = props.onLoaded;
    selectionRef.current = props.onSelectionChanged;
    copyRef.current = props.onCellCopy;
    columnsRef.current = props.columns;
  });

  // The open row menu, by case id (see row-menu-state); closed once its case is not on the
  // page, so that it cannot pop open when the case comes back later.
  const [openMenu, setOpenMenu] = useState<OpenRowMenu | null>(null);
  const rowMenu = useMemo(() => ({ open: openMenu, setOpen: setOpenMenu }), [openMenu]);
  const keepMenuOf = useCallback((rows: CaseRow[]) => {
    const ids = new Set(rows.map((r) => r.id));
    setOpenMenu((cur) => (cur && !ids.has(cur.rowId) ? null : cur));
  }, []);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params) => {
        const limit = params.endRow - params.startRow;
        const sort = params.sortModel[0];
        sortRef.current = sort;
        fetchRef
          .current({ start: params.startRow, limit, sort })
          .then((r) => {
            params.successCallback(r.rows, r.total);
            // The page's rows are known here (the grid shows them a moment later).
            const api = apiRef.current;
            if (!api || params.startRow === api.paginationGetCurrentPage() * api.paginationGetPageSize())
              keepMenuOf(r.rows);
            loadedRef.current?.(r.rows, r.total);
            apiRef.current?.[r.total === 0 ? 'showNoRowsOverlay' : 'hideOverlay']?.();
          })
          .catch(() => {
            // A failed load shows an empty grid; a sort error resets the sort (spec 2 §7).
            params.successCallback([], 0);
            if (sort) {
              try {
                apiRef.current?.applyColumnState({ defaultState: { sort: null } });
              } catch {
                // the sort stays; the grid is empty anyway
              }
            }
          });
      },
    }),
    // A new key is a new datasource: the grid reloads from page one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [props.queryKey, keepMenuOf],
  );

  useEffect(() => {
    apiRef.current?.deselectAll();
    apiRef.current?.setGridOption('datasource', datasource);
  }, [datasource]);

  const columnDefs = useMemo<ColDef<CaseRow>[]>(
    () =>
      props.columns.map((col) => {
        const def: ColDef<CaseRow> = {
          colId: col.key,
          field: col.key as keyof CaseRow & string,
          headerName: col.label,
          width: col.width,
          minWidth: 55,
          sortable: !UNSORTABLE.has(col.kind),
          hide: props.hidden.has(col.key),
          pinned: col.pinned ?? null,
          lockPinned: !!col.locked,
          lockPosition: col.locked ? 'right' : undefined,
          suppressMovable: !!col.locked,
          suppressHeaderMenuButton: !!col.locked,
          cellClass: col.kind === 'money' ? 'ag-right-aligned-cell' : undefined,
          valueFormatter: (p) => (p.data ? cellText(p.data, col) : ''),
        };
        if (CUSTOM.has(col.kind)) {
          def.cellRenderer = CustomCell;
          def.cellRendererParams = { kind: col.kind };
        }
        if (col.kind === 'actions' || col.kind === 'assign-control') def.cellStyle = { overflow: 'visible' };
        return def;
      }),
    [props.columns, props.hidden],
  );

  useImperativeHandle(
    ref,
    () => ({
      pageRows: () => (apiRef.current ? pageRowsOf(apiRef.current) : []),
      pageStart() {
        const api = apiRef.current;
        return api ? api.paginationGetCurrentPage() * api.paginationGetPageSize() : 0;
      },
      selectedRows: () => apiRef.current?.getSelectedRows() ?? [],
      clearSelection: () => apiRef.current?.deselectAll(),
      refresh: () => apiRef.current?.refreshInfiniteCache(),
      currentSort: () => sortRef.current,
      exportPageCsv(columns, fileName) {
        const api = apiRef.current;
        if (!api) return;
        const first = api.paginationGetCurrentPage() * api.paginationGetPageSize();
        const last = first + api.paginationGetPageSize();
        const byKey = new Map(columns.map((c) => [c.key, c]));
        api.exportDataAsCsv({
          fileName,
          columnKeys: columns.map((c) => c.key),
          shouldRowBeSkipped: (p) =>
            p.node.rowIndex == null || p.node.rowIndex < first || p.node.rowIndex >= last,
          processCellCallback: (p) => {
            const col = byKey.get(p.column.getColId());
            return col && p.node?.data ? cellText(p.node.data as CaseRow, col) : String(p.value ?? '');
          },
        });
      },
    }),
    [],
  );

  const theme = useMemo(() => themeQuartz.withParams({ headerFontWeight: 600, fontFamily: 'inherit' }), []);
  const rowSelection = useMemo<RowSelectionOptions<CaseRow> | undefined>(
    () =>
      props.selectable
        ? {
            mode: 'multiRow',
            checkboxes: true,
            headerCheckbox: false,
            isRowSelectable: (node) => node.data?.status_id === 1,
          }
        : undefined,
    [props.selectable],
  );
  const onSelectionChanged = useCallback(
    (e: SelectionChangedEvent<CaseRow>) => selectionRef.current?.(e.api.getSelectedRows()),
    [],
  );
  const onCellKeyDown = useCallback((e: CellKeyDownEvent<CaseRow> | FullWidthCellKeyDownEvent<CaseRow>) => {
    const k = e.event as KeyboardEvent | undefined;
    if (!('column' in e) || !k || !(k.ctrlKey || k.metaKey) || k.key !== 'c' || !e.data) return;
    const col = columnsRef.current.find((c) => c.key === e.column.getColId());
    if (col) {
      const text = cellText(e.data, col);
      void navigator.clipboard?.writeText(text).then(() => copyRef.current?.(text));
    }
  }, []);
  // Another page of cached rows; a page still loading is checked when it arrives (and a new
  // datasource also resets the pager before its rows come).
  const onPaginationChanged = useCallback(
    (e: PaginationChangedEvent<CaseRow>) => {
      const rows = e.newPage ? pageRowsOf(e.api) : [];
      if (rows.length) keepMenuOf(rows);
    },
    [keepMenuOf],
  );
  const onGridReady = useCallback((e: GridReadyEvent<CaseRow>) => {
    apiRef.current = e.api;
  }, []);

  return (
    <div style={{ height: props.height ?? 560 }} data-testid="case-grid">
      <RenderCellContext.Provider value={props.renderCell}>
        <RowMenuContext.Provider value={rowMenu}>
          <AgGridReact<CaseRow>
            theme={theme}
            columnDefs={columnDefs}
            defaultColDef={DEFAULT_COL}
            rowModelType="infinite"
            datasource={datasource}
            cacheBlockSize={props.pageSize}
            maxBlocksInCache={6}
            pagination
            paginationPageSize={props.pageSize}
            paginationPageSizeSelector={false}
            getRowId={rowId}
            rowSelection={rowSelection}
            selectionColumnDef={SELECTION_COLUMN}
            onSelectionChanged={onSelectionChanged}
            onCellKeyDown={onCellKeyDown}
            onGridReady={onGridReady}
            onPaginationChanged={onPaginationChanged}
            overlayNoRowsTemplate="No Records Found!"
            styleNonce={cspNonce()}
          />
        </RowMenuContext.Provider>
      </RenderCellContext.Provider>
    </div>
  );
});

export default CaseGrid;
