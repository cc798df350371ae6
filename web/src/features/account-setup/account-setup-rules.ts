/**
 * When the Account Setup modal opens by itself (spec 3 §2 names the modal,
 * not when it shows; ours): once for a merchant admin whose merchant has no
 * MID yet (a new merchant), until the admin closes it. The top bar's
 * 'Account Setup' button opens it any time. Closing is remembered in the
 * browser per tenant and user, as in-app messages are.
 */
export interface SetupUser {
  id: number;
  role: string;
  mids_count: number;
  impersonated_by?: unknown;
}

const keyOf = (tenant: string, userId: number) => `portal.accountSetup.dismissed:${tenant}:${userId}`;

export function setupDismissed(storage: Storage, tenant: string, userId: number): boolean {
  try {
    return storage.getItem(keyOf(tenant, userId)) === '1';
  } catch {
    return false;
  }
}

export function rememberSetupDismissed(storage: Storage, tenant: string, userId: number): void {
  try {
    storage.setItem(keyOf(tenant, userId), '1');
  } catch {
    // Storage full or blocked: the modal may show again next time, nothing worse.
  }
}

/** Someone acting as the user ('Login As') is not the new merchant admin: no automatic modal for them. */
export function opensByItself(user: SetupUser, dismissed: boolean): boolean {
  return !dismissed && !user.impersonated_by && user.role === 'merchant_admin' && user.mids_count === 0;
}
