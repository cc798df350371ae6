import type { ColDef } from 'ag-grid-community';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fitContent, fitHeaders, headerMinWidth, headerTextWidth, widen } from './grid-fit';

type Row = { a: string };

beforeAll(() => {
  // jsdom has no canvas: the width is estimated from the text's length.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

describe('fitHeaders (issue 29.3: no header cut to "Curre…")', () => {
  it('raises a minimum width below the header text, with room for the sort arrow of a sortable column', () => {
    const text = headerTextWidth('Currency');
    expect(headerMinWidth('Currency', true)).toBeGreaterThan(headerMinWidth('Currency', false));
    expect(headerMinWidth('Currency', false)).toBeGreaterThan(text);
    const [col] = fitHeaders<Row>([{ headerName: 'Currency', field: 'a', minWidth: 40 }], { sortable: true });
    expect(col!.minWidth).toBe(headerMinWidth('Currency', true));
  });

  it('keeps a column already wide enough, and widens fixed and capped ones', () => {
    const wide: ColDef<Row> = { headerName: 'ID', minWidth: 200 };
    expect(fitHeaders<Row>([wide])[0]).toBe(wide);
    const [fixed] = fitHeaders<Row>([{ headerName: 'Transaction Currency', width: 60, maxWidth: 70 }]);
    const need = headerMinWidth('Transaction Currency', true);
    expect(fixed).toMatchObject({ width: need, minWidth: need, maxWidth: need });
    // An unsortable column (the grid's default or its own) needs no room for the arrow.
    const [plain] = fitHeaders<Row>([{ headerName: 'Actions', sortable: false }]);
    expect(plain!.minWidth).toBe(headerMinWidth('Actions', false));
  });
});

describe('content widths', () => {
  it('only grow, and leave the object alone when nothing grows (no re-render loop)', () => {
    const first = widen({}, { a: 120 });
    expect(first).toEqual({ a: 120 });
    expect(widen(first, { a: 100 })).toBe(first);
    expect(widen(first, { a: 150, b: 90 })).toEqual({ a: 150, b: 90 });
  });

  it('raise the minimum of a flexible column and the width of a fixed one, by column id', () => {
    const cols = fitContent<Row>(
      [
        { field: 'a', minWidth: 90 },
        { colId: 'fixed', width: 100, maxWidth: 110 },
        { colId: 'other', minWidth: 80 },
      ],
      { a: 170, fixed: 140 },
    );
    expect(cols[0]).toMatchObject({ minWidth: 170 });
    expect(cols[1]).toMatchObject({ width: 140, minWidth: 140, maxWidth: 140 });
    expect(cols[2]).toEqual({ colId: 'other', minWidth: 80 });
  });
});
