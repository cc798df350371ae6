import { createContext, useCallback, useContext, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * Which row menu (or row popover) is open, held by the grid rather than by
 * the cell that draws it. AG Grid throws cell renderers away whenever it
 * builds new row nodes (every new datasource: search, tab, filters) and
 * reuses row nodes by position on a cache refresh; state kept inside the
 * cell either died with it (the menu closed) or moved to another case.
 * Keyed by case id, a redrawn row reopens its own menu and no other.
 */
export interface OpenRowMenu {
  rowId: number;
  menu: string;
}

export interface RowMenuState {
  open: OpenRowMenu | null;
  setOpen: Dispatch<SetStateAction<OpenRowMenu | null>>;
}

export const RowMenuContext = createContext<RowMenuState | null>(null);

/** Open state of one menu of one row; local state outside a grid (no provider). */
export function useRowMenu(rowId: number, menu: string): [boolean, (open: boolean) => void] {
  const ctx = useContext(RowMenuContext);
  const [local, setLocal] = useState(false);
  const setOpen = ctx?.setOpen;
  const set = useCallback(
    (open: boolean) => {
      if (!setOpen) return setLocal(open);
      setOpen((cur) => {
        if (open) return { rowId, menu };
        return cur?.rowId === rowId && cur.menu === menu ? null : cur;
      });
    },
    [setOpen, rowId, menu],
  );
  if (!ctx) return [local, set];
  return [ctx.open?.rowId === rowId && ctx.open.menu === menu, set];
}
