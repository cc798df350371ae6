import type { SuppressKeyboardEventParams } from 'ag-grid-community';

/** Controls inside a cell that take keys themselves: a row menu's trigger, a button, a link, a field. */
const CONTROL =
  'button, a[href], input, select, textarea, [role="button"], [role="menuitem"], [role="combobox"]';

/**
 * AG Grid's `suppressKeyboardEvent` for every column (issue 29.5): while focus is on a control inside a
 * cell, its keys are the control's (ArrowDown and Enter open a row menu, Space presses a button); AG Grid
 * would take the arrow keys to move to the next cell first. On the cell itself the arrow keys move through
 * the grid as usual, and Tab always leaves to the grid's own navigation.
 */
export function keysToCellControls({ event }: SuppressKeyboardEventParams): boolean {
  if (event.key === 'Tab') return false;
  const target = event.target;
  if (!(target instanceof Element) || target.matches('[role="gridcell"]')) return false;
  return target.closest(CONTROL) !== null;
}
