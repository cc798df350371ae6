/** 'Login As' (spec 4.4): the selected user's id and name live in sessionStorage; every call sends the id. */
export const IMPERSONATE_ID_KEY = 'portal.selectedUserId';
export const IMPERSONATE_NAME_KEY = 'portal.selectedUserName';

export interface Impersonation {
  id: string;
  name: string;
}

export function getImpersonation(storage: Storage = sessionStorage): Impersonation | null {
  const id = storage.getItem(IMPERSONATE_ID_KEY);
  if (!id) return null;
  return { id, name: storage.getItem(IMPERSONATE_NAME_KEY) ?? '' };
}

export function startImpersonation(
  user: { id: number | string; name: string },
  storage: Storage = sessionStorage,
): void {
  storage.setItem(IMPERSONATE_ID_KEY, String(user.id));
  storage.setItem(IMPERSONATE_NAME_KEY, user.name);
}

export function clearImpersonation(storage: Storage = sessionStorage): void {
  storage.removeItem(IMPERSONATE_ID_KEY);
  storage.removeItem(IMPERSONATE_NAME_KEY);
}

/** After Login As: / when the user holds a /dashboard resource, else the url of their first resource (spec 4.4). */
export function landingAfterLoginAs(resources: readonly { url: string | null }[]): string {
  if (resources.some((r) => r.url === '/dashboard')) return '/';
  return resources.find((r) => r.url)?.url ?? '/';
}
