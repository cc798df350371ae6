/** Page sizes of the paged selects (spec 2 §2.2, §9: 5, 10, 25), offered only above the smallest. */
export const PAGE_SIZES = [5, 10, 25] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];
/** Select filters and the assigned-user search wait this long after the last keystroke (spec 2 §9). */
export const SELECT_SEARCH_DEBOUNCE_MS = 500;

/** Pages needed for `total` options; at least one, so an empty list is page 1 of 1. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** A page number the pager accepts: a whole number from 1 to the page count. */
export function clampPage(page: number, count: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, count));
}

/** Whether the page-size choice is offered: only when there are more options than the smallest size. */
export const offersPageSizes = (total: number) => total > PAGE_SIZES[0];
