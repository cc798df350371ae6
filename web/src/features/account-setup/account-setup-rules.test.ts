import { describe, expect, it } from 'vitest';
import { opensByItself, rememberSetupDismissed, setupDismissed } from './account-setup-rules';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('Account Setup modal opening by itself', () => {
  const admin = { id: 7, role: 'merchant_admin', mids_count: 0, impersonated_by: null };
  it('opens once for a merchant admin whose merchant has no MID', () => {
    expect(opensByItself(admin, false)).toBe(true);
    expect(opensByItself({ ...admin, mids_count: 3 }, false)).toBe(false);
    expect(opensByItself({ ...admin, role: 'merchant_user' }, false)).toBe(false);
    expect(opensByItself({ ...admin, role: 'cb911_admin' }, false)).toBe(false);
    expect(opensByItself({ ...admin, impersonated_by: { id: 1 } }, false)).toBe(false);
    expect(opensByItself(admin, true)).toBe(false);
  });
  it('remembers the dismissal per tenant and user', () => {
    const s = memoryStorage();
    expect(setupDismissed(s, 'acme', 7)).toBe(false);
    rememberSetupDismissed(s, 'acme', 7);
    expect(setupDismissed(s, 'acme', 7)).toBe(true);
    expect(setupDismissed(s, 'acme', 8)).toBe(false);
    expect(setupDismissed(s, 'northbank', 7)).toBe(false);
  });
});
