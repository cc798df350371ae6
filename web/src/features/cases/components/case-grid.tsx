import type { CaseRow } from '@portal/contracts';
import {
  CsvExportModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  PaginationModule,
  RowSelectionModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type GridApi,
  type ICellRendererParams,
  type IDatasource,
  type SortModelItem,
  type GetRowIdParams,
  type RowSelectionOptions,
  type SelectionColumnDef,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, type ReactNode } from 'react';
import { cellText, UNSORTABLE, type CaseColumn } from '../lib/case-columns';

// Community only, only the modules used (TOOLCHAIN); CSV export is Community.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  PaginationModule,
  RowSelectionModule,
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

type Ctx = { renderCell: CaseGridProps['renderCell'] };

function CustomCell(p: ICellRendererParams<CaseRow> & { kind: CaseColumn['kind'] }) {
  if (!p.data) return null;
  return <>{(p.context as Ctx).renderCell(p.kind, p.data)}</>;
}

// Stable option objects: new ones on every render make the grid redraw its cells (and close open row menus).
const DEFAULT_COL: ColDef<CaseRow> = { resizable: true };
const SELECTION_COLUMN: SelectionColumnDef = { pinned: 'left', width: 50, lockPinned: true };
const rowId = (p: GetRowIdParams<CaseRow>) => String(p.data.id);

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
  useEffect(() => {
    fetchRef.current = props.fetchPage;
    loadedRef.current = props.onLoaded;
  });

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
    [props.queryKey],
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
      pageRows() {
        const api = apiRef.current;
        if (!api) return [];
        const first = api.paginationGetCurrentPage() * api.paginationGetPageSize();
        const rows: CaseRow[] = [];
        for (let i = first; i < first + api.paginationGetPageSize(); i++) {
          const node = api.getDisplayedRowAtIndex(i);
          if (node?.data) rows.push(node.data);
        }
        return rows;
      },
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
  const context = useMemo<Ctx>(() => ({ renderCell: props.renderCell }), [props.renderCell]);

  return (
    <div style={{ height: props.height ?? 560 }} data-testid="case-grid">
      <AgGridReact<CaseRow>
        theme={theme}
        columnDefs={columnDefs}
        context={context}
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
        onSelectionChanged={(e) => props.onSelectionChanged?.(e.api.getSelectedRows())}
        onCellKeyDown={(e) => {
          const k = e.event as KeyboardEvent | undefined;
          if (!('column' in e) || !k || !(k.ctrlKey || k.metaKey) || k.key !== 'c' || !e.data) return;
          const col = props.columns.find((c) => c.key === e.column.getColId());
          if (col) {
            const text = cellText(e.data, col);
            void navigator.clipboard?.writeText(text).then(() => props.onCellCopy?.(text));
          }
        }}
        onGridReady={(e) => {
          apiRef.current = e.api;
        }}
        overlayNoRowsTemplate="No Records Found!"
      />
    </div>
  );
});

export default CaseGrid;
