import { useBreakpointValue } from '@chakra-ui/react';
import type { CaseRow } from '@portal/contracts';
import {
  CellStyleModule,
  ClientSideRowModelModule,
  CsvExportModule,
  ModuleRegistry,
  RowApiModule,
  RowSelectionModule,
  TooltipModule,
  ValidationModule,
  type ColDef,
  type GridApi,
  type CellKeyDownEvent,
  type FullWidthCellKeyDownEvent,
  type GridReadyEvent,
  type ICellRendererParams,
  type SelectionChangedEvent,
  type SortChangedEvent,
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
import { RowMenuContext, type OpenRowMenu } from '../../../lib/row-menu-state';
import { cspNonce } from '../../../lib/csp-nonce';
import { GRID_THEME, headerMinWidth, useContentFit } from '../../../components/grid-fit';
import { keysToCellControls } from '../../../components/grid-keys';
import { CasePager } from './case-pager';
import {
  DetailRowRenderer,
  EXPAND_COLUMN,
  ExpandContext,
  detailRowHeight,
  isDetail,
  isFullWidthRow,
  withDetails,
  type ExpandState,
} from './expandable-rows';

// Community only, only the modules used (TOOLCHAIN); CSV export and tooltips are Community. CellStyle gives
// the cellClass and cellStyle of money and action cells: without it AG Grid only logs error #200.
// The client-side row model holds the page on screen (paged and sorted by the server) and the
// full-width detail rows of expanded cases: the infinite row model has one fixed row height.
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  RowSelectionModule,
  RowApiModule,
  CellStyleModule,
  CsvExportModule,
  // The header tooltip of the expand column ('Details'), which has no header text.
  TooltipModule,
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
  /** A new key reloads (filters, search, tab). */
  queryKey: string;
  pageSize: number;
  /** The page (from 0) and sort, owned by the list (its URL). */
  page: number;
  sort: SortModelItem | undefined;
  onPage: (page: number) => void;
  /** A header click ('ui') or a sort the server refused ('error', which resets it). */
  onSort: (sort: SortModelItem | undefined, cause: 'ui' | 'error') => void;
  /** Multi-select of status-1 (New) cases for bulk actions. */
  selectable: boolean;
  renderCell: (kind: CaseColumn['kind'], row: CaseRow) => ReactNode;
  onSelectionChanged?: (rows: CaseRow[]) => void;
  onCellCopy?: (value: string) => void;
  onLoaded?: (rows: CaseRow[], total: number) => void;
  height?: number;
  /** Expandable rows (spec 2 §2.1): the full-width detail row of an expanded case. */
  renderDetail?: (row: CaseRow) => ReactNode;
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
// The server sorts: the grid keeps the order it is given (a stable sort with equal rows).
// Keys on a control in a cell (the row menus) are the control's (issue 29.5).
const DEFAULT_COL: ColDef<CaseRow> = {
  resizable: true,
  comparator: () => 0,
  suppressKeyboardEvent: keysToCellControls,
};
const SELECTION_COLUMN: SelectionColumnDef = { pinned: 'left', width: 50, lockPinned: true };
const rowId = (p: GetRowIdParams<CaseRow>) => (isDetail(p.data) ? `detail-${p.data.id}` : String(p.data.id));

interface LoadedPage {
  rows: CaseRow[];
  total: number;
}

const CUSTOM = new Set<CaseColumn['kind']>([
  'flag',
  'document',
  'issuer-docs',
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
  const sortChangeRef = useRef(props.onSort);
  useEffect(() => {
    fetchRef.current = props.fetchPage;
    loadedRef.current = props.onLoaded;
    selectionRef.current = props.onSelectionChanged;
    copyRef.current = props.onCellCopy;
    columnsRef.current = props.columns;
    sortChangeRef.current = props.onSort;
  });

  // The open row menu, by case id (see row-menu-state); closed once its case is not on the
  // page, so that it cannot pop open when the case comes back later.
  const [openMenu, setOpenMenu] = useState<OpenRowMenu | null>(null);
  const rowMenu = useMemo(() => ({ open: openMenu, setOpen: setOpenMenu }), [openMenu]);
  const keepMenuOf = useCallback((rows: CaseRow[]) => {
    const ids = new Set(rows.map((r) => r.id));
    setOpenMenu((cur) => (cur && !ids.has(cur.rowId) ? null : cur));
  }, []);

  // Server-side paging and sorting; the list owns page and sort (and starts a new key from page one).
  const pageIndex = props.page;
  const sortColId = props.sort?.colId;
  const sortOrder = props.sort?.sort;
  const sort = useMemo<SortModelItem | undefined>(
    () => (sortColId && sortOrder ? { colId: sortColId, sort: sortOrder } : undefined),
    [sortColId, sortOrder],
  );
  const [reloads, setReloads] = useState(0);
  const [loaded, setLoaded] = useState<LoadedPage | null>(null);
  const [shownKey, setShownKey] = useState(props.queryKey);
  if (shownKey !== props.queryKey) {
    setShownKey(props.queryKey);
    setLoaded(null);
  }
  const pageRef = useRef<{ rows: CaseRow[]; start: number }>({ rows: [], start: 0 });

  // Expanded rows, by case id like the row menus: kept across refreshes (a write, the 30 s
  // recheck), dropped once the case is not on the page.
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const keepExpandedOf = useCallback((rows: CaseRow[]) => {
    const ids = new Set(rows.map((r) => r.id));
    setExpanded((cur) => {
      const next = new Set([...cur].filter((id) => ids.has(id)));
      return next.size === cur.size ? cur : next;
    });
  }, []);
  const toggleExpanded = useCallback((id: number) => {
    setExpanded((cur) => {
      const next = new Set(cur);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const renderDetail = props.renderDetail;
  const expandState = useMemo<ExpandState | null>(
    () => (renderDetail ? { expanded, toggle: toggleExpanded, render: renderDetail } : null),
    [expanded, toggleExpanded, renderDetail],
  );

  useEffect(() => {
    let live = true;
    const start = pageIndex * props.pageSize;
    sortRef.current = sort;
    fetchRef
      .current({ start, limit: props.pageSize, sort })
      .then((r) => {
        if (!live) return;
        pageRef.current = { rows: r.rows, start };
        setLoaded({ rows: r.rows, total: r.total });
        keepMenuOf(r.rows);
        keepExpandedOf(r.rows);
        loadedRef.current?.(r.rows, r.total);
      })
      .catch(() => {
        if (!live) return;
        // A failed load shows an empty grid; a sort error resets the sort (spec 2 §7).
        pageRef.current = { rows: [], start };
        setLoaded({ rows: [], total: 0 });
        if (sort) sortChangeRef.current(undefined, 'error');
      });
    return () => {
      live = false;
    };
  }, [props.queryKey, props.pageSize, pageIndex, sort, reloads, keepMenuOf, keepExpandedOf]);

  useEffect(() => {
    apiRef.current?.deselectAll();
  }, [props.queryKey]);

  const rowData = useMemo(
    () => (loaded ? withDetails(loaded.rows, renderDetail ? expanded : new Set()) : null),
    [loaded, expanded, renderDetail],
  );

  // Columns as wide as their header and the content of the rows shown (up to a limit; widths only
  // grow, so that paging does not make them jump): a grid wider than its box scrolls sideways.
  const { boxRef, contentWidths, fit: fitToContent } = useContentFit();

  const narrow = useBreakpointValue({ base: true, md: false }) ?? false;
  const columnDefs = useMemo<ColDef<CaseRow>[]>(
    () =>
      props.columns.map((col) => {
        const sortable = !UNSORTABLE.has(col.kind);
        const minWidth = Math.max(55, headerMinWidth(col.label, sortable));
        const def: ColDef<CaseRow> = {
          colId: col.key,
          field: col.key as keyof CaseRow & string,
          headerName: col.label,
          width: Math.max(col.width, minWidth, contentWidths[col.key] ?? 0),
          minWidth,
          sortable,
          // The list's sort (its URL) shows in the header.
          sort: sortColId === col.key ? (sortOrder ?? null) : null,
          hide: props.hidden.has(col.key),
          // On a phone the right-pinned block (Document, Assigned, Actions) would leave the rest no room:
          // only Actions stays pinned, the others scroll with the grid.
          pinned: narrow && col.kind !== 'actions' ? null : (col.pinned ?? null),
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
        // The Document cell follows the status (compiling -> available after the 30 s recheck), not a
        // field of its own: always redraw it when its row is refreshed.
        if (col.kind === 'document') def.equals = () => false;
        if (col.kind === 'actions' || col.kind === 'assign-control') def.cellStyle = { overflow: 'visible' };
        // Issue 33: 'Fight' stands out, 'Accept' is muted.
        if (col.kind === 'win-odds')
          def.cellStyle = (p) => ({
            fontWeight: 600,
            color:
              p.data?.win_odds?.recommendation === 'Fight'
                ? 'var(--chakra-colors-green-fg)'
                : 'var(--chakra-colors-fg-muted)',
          });
        return def;
      }),
    [props.columns, props.hidden, sortColId, sortOrder, contentWidths, narrow],
  );
  const allColumnDefs = useMemo(
    () => (renderDetail ? [EXPAND_COLUMN, ...columnDefs] : columnDefs),
    [columnDefs, renderDetail],
  );

  useImperativeHandle(
    ref,
    () => ({
      pageRows: () => pageRef.current.rows,
      pageStart: () => pageRef.current.start,
      selectedRows: () => (apiRef.current?.getSelectedRows() ?? []).filter((r) => !isDetail(r)),
      clearSelection: () => apiRef.current?.deselectAll(),
      refresh: () => setReloads((n) => n + 1),
      currentSort: () => sortRef.current,
      exportPageCsv(columns, fileName) {
        const api = apiRef.current;
        if (!api) return;
        const byKey = new Map(columns.map((c) => [c.key, c]));
        api.exportDataAsCsv({
          fileName,
          columnKeys: columns.map((c) => c.key),
          shouldRowBeSkipped: (p) => isDetail(p.node.data),
          processCellCallback: (p) => {
            const col = byKey.get(p.column.getColId());
            return col && p.node?.data ? cellText(p.node.data as CaseRow, col) : String(p.value ?? '');
          },
        });
      },
    }),
    [],
  );

  const rowSelection = useMemo<RowSelectionOptions<CaseRow> | undefined>(
    () =>
      props.selectable
        ? {
            mode: 'multiRow',
            checkboxes: true,
            headerCheckbox: false,
            isRowSelectable: (node) => node.data?.status_id === 1 && !isDetail(node.data),
          }
        : undefined,
    [props.selectable],
  );
  const onSelectionChanged = useCallback(
    (e: SelectionChangedEvent<CaseRow>) => selectionRef.current?.(e.api.getSelectedRows()),
    [],
  );
  const onCellKeyDown = useCallback(
    (e: CellKeyDownEvent<CaseRow> | FullWidthCellKeyDownEvent<CaseRow>) => {
      const k = e.event as KeyboardEvent | undefined;
      // Enter or Space on the focused expand cell (on its button the button's own click does it).
      if (
        'column' in e &&
        k &&
        e.column.getColId() === 'expand' &&
        (k.key === 'Enter' || k.key === ' ') &&
        e.data &&
        !(k.target instanceof HTMLElement && k.target.closest('button'))
      ) {
        k.preventDefault();
        toggleExpanded(e.data.id);
        return;
      }
      if (!('column' in e) || !k || !(k.ctrlKey || k.metaKey) || k.key !== 'c' || !e.data) return;
      const col = columnsRef.current.find((c) => c.key === e.column.getColId());
      if (col) {
        const text = cellText(e.data, col);
        void navigator.clipboard?.writeText(text).then(() => copyRef.current?.(text));
      }
    },
    [toggleExpanded],
  );
  // Header clicks: the server sorts, from page one (one sorted column at a time). Sorts the grid
  // applies from its column definitions (the list's own sort) are not the user's.
  const onSortChanged = useCallback((e: SortChangedEvent<CaseRow>) => {
    if (e.source !== 'uiColumnSorted' || !e.columns) return;
    const col = e.columns.find((c) => c.getSort());
    const next = col ? { colId: col.getColId(), sort: col.getSort()! } : undefined;
    sortChangeRef.current(next, 'ui');
  }, []);
  const onGridReady = useCallback((e: GridReadyEvent<CaseRow>) => {
    apiRef.current = e.api;
  }, []);

  return (
    <div data-testid="case-grid">
      <RenderCellContext.Provider value={props.renderCell}>
        <RowMenuContext.Provider value={rowMenu}>
          <ExpandContext.Provider value={expandState}>
            <div style={{ height: props.height ?? 560 }} ref={boxRef}>
              <AgGridReact<CaseRow>
                theme={GRID_THEME}
                columnDefs={allColumnDefs}
                defaultColDef={DEFAULT_COL}
                rowData={rowData}
                loading={rowData === null}
                isFullWidthRow={isFullWidthRow}
                fullWidthCellRenderer={DetailRowRenderer}
                getRowHeight={detailRowHeight}
                onSortChanged={onSortChanged}
                getRowId={rowId}
                rowSelection={rowSelection}
                selectionColumnDef={SELECTION_COLUMN}
                onSelectionChanged={onSelectionChanged}
                onCellKeyDown={onCellKeyDown}
                onGridReady={onGridReady}
                onFirstDataRendered={fitToContent}
                onModelUpdated={fitToContent}
                suppressColumnVirtualisation
                overlayNoRowsTemplate="No Records Found!"
                styleNonce={cspNonce()}
              />
            </div>
            <CasePager
              page={pageIndex}
              pageSize={props.pageSize}
              total={loaded?.total ?? 0}
              onPage={props.onPage}
            />
          </ExpandContext.Provider>
        </RowMenuContext.Provider>
      </RenderCellContext.Provider>
    </div>
  );
});

export default CaseGrid;
