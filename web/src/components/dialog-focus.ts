import { useCallback, useState } from 'react';

/** What had focus when a dialog opened, and how to find it again if its element was drawn anew. */
interface FocusReturn {
  el: HTMLElement;
  selector: string | null;
}

const attr = (name: string, value: string) => `[${name}="${CSS.escape(value)}"]`;

/**
 * The element focus should go back to: what has focus now, but for a menu's item or content (a dialog
 * opened by a menu item) the menu's trigger, since the menu closes and its content goes away.
 */
function returnTargetOf(active: Element | null): FocusReturn | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"]');
  const labelledBy = menu?.getAttribute('aria-labelledby');
  const el = menu ? (labelledBy ? document.getElementById(labelledBy) : null) : active;
  if (!el) return null;
  const testId = el.getAttribute('data-testid');
  const label = el.getAttribute('aria-label');
  return {
    el,
    selector: testId ? attr('data-testid', testId) : label ? attr('aria-label', label) : null,
  };
}

const usable = (el: Element | null): el is HTMLElement =>
  el instanceof HTMLElement && el.isConnected && el.getClientRects().length > 0;

/**
 * `finalFocusEl` for a Chakra/Ark Dialog (issue 29.5): focus returns to what opened the dialog. Ark
 * returns it to the element focused when its focus trap started, a frame after opening; for a dialog
 * opened from a menu item that can be the closing menu, and focus then falls to the page. This notes
 * the opener at the first render (a menu item stands for the menu's trigger) and, if a grid redrew
 * that row meanwhile, finds the trigger again by its test id or accessible name.
 */
export function useFinalFocus(): () => HTMLElement | null {
  const [target] = useState(() =>
    typeof document === 'undefined' ? null : returnTargetOf(document.activeElement),
  );
  return useCallback(() => {
    if (!target) return null;
    if (usable(target.el)) return target.el;
    if (!target.selector) return null;
    return [...document.querySelectorAll(target.selector)].find(usable) ?? null;
  }, [target]);
}
