import type { CaseRow } from '@portal/contracts';
import { Icon, IconButton } from '@chakra-ui/react';
import type { ColDef, ICellRendererParams, IsFullWidthRowParams, RowHeightParams } from 'ag-grid-community';
import { ChevronRight } from 'lucide-react';
import { createContext, useContext, type ReactNode } from 'react';

/*
 * Expandable rows (spec 2 §2.1) with AG Grid Community only: an expanded case
 * is followed in the row data by a detail item, drawn as a full-width row.
 * Detail items are copies of their case kept in a WeakSet, so the grid keeps
 * its CaseRow type and nothing else can mistake them for cases.
 */
const details = new WeakSet<CaseRow>();
const detailOfRow = new WeakMap<CaseRow, CaseRow>();

export function isDetail(row: CaseRow | undefined | null): boolean {
  return !!row && details.has(row);
}

/** The detail item of a case (the same object while the case's row object is the same). */
export function detailOf(row: CaseRow): CaseRow {
  let d = detailOfRow.get(row);
  if (!d) {
    d = { ...row };
    details.add(d);
    detailOfRow.set(row, d);
  }
  return d;
}

/** The page's rows with the detail item after each expanded case. */
export function withDetails(rows: readonly CaseRow[], expanded: ReadonlySet<number>): CaseRow[] {
  const out: CaseRow[] = [];
  for (const r of rows) {
    out.push(r);
    if (expanded.has(r.id)) out.push(detailOf(r));
  }
  return out;
}

export const DETAIL_ROW_HEIGHT = 220;
/** Below Chakra's md breakpoint (48em) the details stack in two columns, comments under them: taller. */
export const NARROW_DETAIL_ROW_HEIGHT = 420;
const narrow = () => typeof window !== 'undefined' && window.matchMedia('(max-width: 47.99em)').matches;

export const isFullWidthRow = (p: IsFullWidthRowParams<CaseRow>) => isDetail(p.rowNode.data);
export const detailRowHeight = (p: RowHeightParams<CaseRow>) =>
  isDetail(p.data) ? (narrow() ? NARROW_DETAIL_ROW_HEIGHT : DETAIL_ROW_HEIGHT) : undefined;

export interface ExpandState {
  expanded: ReadonlySet<number>;
  toggle: (id: number) => void;
  render: (row: CaseRow) => ReactNode;
}

// Read from React context, like the row menus: a redrawn cell shows the current state.
export const ExpandContext = createContext<ExpandState | null>(null);

/** The expand control: a real button (Tab, Enter, Space), and Enter/Space on the focused cell. */
function ExpandCell(p: ICellRendererParams<CaseRow>) {
  const ctx = useContext(ExpandContext);
  const row = p.data;
  if (!row || !ctx || isDetail(row)) return null;
  const open = ctx.expanded.has(row.id);
  return (
    <IconButton
      size="2xs"
      variant="ghost"
      aria-expanded={open}
      aria-label={`${open ? 'Collapse' : 'Expand'} case ${row.id}`}
      title={open ? 'Hide details' : 'Show details'}
      data-testid={`expand-${row.id}`}
      onClick={() => ctx.toggle(row.id)}
    >
      <Icon size="sm" transform={open ? 'rotate(90deg)' : undefined} transition="transform 0.15s">
        <ChevronRight />
      </Icon>
    </IconButton>
  );
}

/** The full-width detail row. */
export function DetailRowRenderer(p: ICellRendererParams<CaseRow>) {
  const ctx = useContext(ExpandContext);
  if (!p.data || !ctx) return null;
  return <>{ctx.render(p.data)}</>;
}

export const EXPAND_COLUMN: ColDef<CaseRow> = {
  colId: 'expand',
  headerName: '',
  headerTooltip: 'Details',
  width: 48,
  minWidth: 48,
  maxWidth: 48,
  cellStyle: { paddingLeft: 6, paddingRight: 6, display: 'flex', alignItems: 'center' },
  pinned: 'left',
  lockPinned: true,
  lockPosition: 'left',
  suppressMovable: true,
  sortable: false,
  resizable: false,
  suppressHeaderMenuButton: true,
  cellRenderer: ExpandCell,
};
