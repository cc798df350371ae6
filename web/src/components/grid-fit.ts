import { themeQuartz, type ColDef } from 'ag-grid-community';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Cell and header padding each side: 12 px (Quartz has 16), so that more columns fit. */
const CELL_PADDING = 12;

/** The grids' one theme: headers in semi-bold, the app's font, a denser padding. */
export const GRID_THEME = themeQuartz.withParams({
  headerFontWeight: 600,
  fontFamily: 'inherit',
  cellHorizontalPadding: CELL_PADDING,
});

/** Quartz's header text: 14 px, semi-bold (headerFontWeight above). */
const HEADER_FONT_SIZE = 14;
/** A header's padding, both sides. */
const HEADER_PADDING = 2 * CELL_PADDING;
/** The sort arrow (16 px) and its gaps, shown beside the text of a sorted column. */
const SORT_ICON = 22;
/** Rounding between canvas and layout. */
const SLACK = 3;

let context: CanvasRenderingContext2D | null | undefined;

/** The width of a header text in the page's font; an estimate where there is no canvas (tests). */
export function headerTextWidth(text: string): number {
  if (context === undefined) {
    try {
      context = document.createElement('canvas').getContext('2d');
    } catch {
      context = null;
    }
  }
  if (!context) return Math.ceil(text.length * HEADER_FONT_SIZE * 0.62);
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  context.font = `600 ${HEADER_FONT_SIZE}px ${family}`;
  return Math.ceil(context.measureText(text).width);
}

/** The narrowest a column may be with its whole header text readable (and its sort arrow). */
export function headerMinWidth(text: string | undefined, sortable: boolean): number {
  if (!text) return 0;
  return headerTextWidth(text) + HEADER_PADDING + (sortable ? SORT_ICON : 0) + SLACK;
}

/**
 * Columns whose minimum (and fixed) widths leave room for their header text: a grid that is
 * then wider than its box scrolls sideways instead of cutting headers to 'F…' or 'Curre…'.
 * `defaults` is the grid's defaultColDef (its sortable and minWidth apply where a column has none).
 */
export function fitHeaders<T>(columns: ColDef<T>[], defaults: ColDef<T> = {}): ColDef<T>[] {
  return columns.map((col) => {
    const sortable = col.sortable ?? defaults.sortable ?? true;
    const need = headerMinWidth(col.headerName, sortable);
    const minWidth = col.minWidth ?? defaults.minWidth ?? 0;
    if (need <= minWidth && (col.width === undefined || need <= col.width)) return col;
    const fitted: ColDef<T> = { ...col, minWidth: Math.max(minWidth, need) };
    if (col.width !== undefined) fitted.width = Math.max(col.width, need);
    // A maximum below the header's need would cut it again.
    if (col.maxWidth !== undefined && col.maxWidth < need) fitted.maxWidth = need;
    return fitted;
  });
}

/** Content wider than this keeps its ellipsis (a long descriptor or outcome text). */
const MAX_CONTENT_WIDTH = 320;

/** A column's key as AG Grid writes it into `col-id`. */
const keyOf = <T>(col: ColDef<T>) => col.colId ?? col.field;

/**
 * The widths that the cut cells of a grid need (their text ends in '…'), by column id, measured
 * on the rows drawn in `box` and capped at MAX_CONTENT_WIDTH.
 */
export function measureCutColumns(box: HTMLElement): Record<string, number> {
  const need: Record<string, number> = {};
  const endPadding: Record<string, number> = {};
  for (const cell of box.querySelectorAll<HTMLElement>('.ag-cell[col-id]')) {
    // A cell that is not cut scrolls no further than its own width.
    if (cell.scrollWidth <= cell.clientWidth) continue;
    const id = cell.getAttribute('col-id')!;
    endPadding[id] ??= parseFloat(getComputedStyle(cell).paddingRight) || 0;
    // A cut cell's scrollWidth holds its start padding and its whole content, not its end padding.
    const content = cell.scrollWidth + endPadding[id];
    // The cell's borders (1 px each side) and a pixel of rounding.
    const width = Math.min(content + 3, MAX_CONTENT_WIDTH);
    need[id] = Math.max(need[id] ?? 0, width);
  }
  return need;
}

/** `current` widened by `measured` (never narrowed, so that paging does not make columns jump); the same object when nothing grows. */
export function widen(
  current: Record<string, number>,
  measured: Record<string, number>,
): Record<string, number> {
  let next = current;
  for (const [id, width] of Object.entries(measured)) {
    if ((current[id] ?? 0) >= width) continue;
    if (next === current) next = { ...current };
    next[id] = width;
  }
  return next;
}

/**
 * Columns at least as wide as their content (`widths`, from measureCutColumns): flexible columns
 * by their minimum width, fixed ones by their width.
 */
export function fitContent<T>(columns: ColDef<T>[], widths: Record<string, number>): ColDef<T>[] {
  return columns.map((col) => {
    const key = keyOf(col);
    const need = key === undefined ? undefined : widths[key];
    if (!need) return col;
    const fitted: ColDef<T> = { ...col, minWidth: Math.max(col.minWidth ?? 0, need) };
    if (col.width !== undefined) fitted.width = Math.max(col.width, need);
    if (col.maxWidth !== undefined && col.maxWidth < need) fitted.maxWidth = need;
    return fitted;
  });
}

/**
 * The content widths of a grid's columns, measured in its box after the rows drew: `fit()` once rows
 * show; widths only grow (paging does not make them jump), and widening one column can cut another
 * (flexible columns share the width), so it measures again until none grows.
 */
export function useContentFit() {
  const boxRef = useRef<HTMLDivElement>(null);
  const [contentWidths, setContentWidths] = useState<Record<string, number>>({});
  const fit = useCallback(() => {
    // After the rows and their cell renderers have drawn.
    setTimeout(() => {
      if (boxRef.current) setContentWidths((cur) => widen(cur, measureCutColumns(boxRef.current!)));
    }, 50);
  }, []);
  useEffect(() => {
    if (Object.keys(contentWidths).length) fit();
  }, [contentWidths, fit]);
  return { boxRef, contentWidths, fit };
}
