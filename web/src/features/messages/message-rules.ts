import type { PortalMessageData } from '@portal/contracts';

/**
 * Which in-app message shows (spec 3 §2 Messages): of the messages whose
 * show_on names the current route, only the last one not yet dismissed.
 * A show_on entry is a path ('/dashboard'), a prefix ('/reports/*') or '*'.
 */
export function routeMatches(showOn: readonly string[], pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return showOn.some((entry) => {
    if (entry === '*') return true;
    if (entry.endsWith('/*')) {
      const base = entry.slice(0, -2);
      return path === base || path.startsWith(`${base}/`);
    }
    return entry === path;
  });
}

export function applicableMessage(
  messages: readonly PortalMessageData[],
  pathname: string,
  dismissed: ReadonlySet<number>,
): PortalMessageData | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!dismissed.has(m.id) && routeMatches(m.show_on, pathname)) return m;
  }
  return null;
}

/** Dismissed message ids, kept in the browser per tenant and user (acting on a message dismisses it). */
const MAX_KEPT = 200;
const keyOf = (tenant: string, userId: number) => `portal.messages.dismissed:${tenant}:${userId}`;

export function readDismissed(storage: Storage, tenant: string, userId: number): Set<number> {
  try {
    const raw = storage.getItem(keyOf(tenant, userId));
    const ids: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : []);
  } catch {
    return new Set();
  }
}

export function rememberDismissed(storage: Storage, tenant: string, userId: number, id: number): Set<number> {
  const ids = [...readDismissed(storage, tenant, userId)].filter((x) => x !== id);
  ids.push(id);
  const kept = ids.slice(-MAX_KEPT);
  try {
    storage.setItem(keyOf(tenant, userId), JSON.stringify(kept));
  } catch {
    // storage full or disabled: the server remembers the action too
  }
  return new Set(kept);
}
