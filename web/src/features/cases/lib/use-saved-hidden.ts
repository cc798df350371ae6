import { useCallback, useState } from 'react';
import type { CaseColumn } from './case-columns';

const key = (grid: string) => `portal.caseGrid.${grid}.hidden`;

function load(grid: string, columns: CaseColumn[]): Set<string> {
  try {
    const raw = localStorage.getItem(key(grid));
    if (raw) return new Set(JSON.parse(raw) as string[]);
  } catch {
    // unreadable storage: defaults
  }
  return new Set(columns.filter((c) => c.hidden).map((c) => c.key));
}

/** Column visibility of a grid, saved in browser storage per grid; reset() clears it (spec 2 §2.1). */
export function useSavedHidden(grid: string, columns: CaseColumn[]) {
  const [hidden, setHidden] = useState(() => load(grid, columns));
  const toggle = useCallback(
    (k: string) =>
      setHidden((prev) => {
        const next = new Set(prev);
        if (next.has(k)) next.delete(k);
        else next.add(k);
        localStorage.setItem(key(grid), JSON.stringify([...next]));
        return next;
      }),
    [grid],
  );
  const reset = useCallback(() => {
    localStorage.removeItem(key(grid));
    setHidden(new Set(columns.filter((c) => c.hidden).map((c) => c.key)));
  }, [grid, columns]);
  return { hidden, toggle, reset };
}
