import { useSyncExternalStore } from 'react';

/**
 * The merchant switcher's choice (spec 1 §1): one merchant or all merchant
 * accounts (null). Kept in sessionStorage; dashboard calls send it as client_id.
 */
const KEY = 'portal.selectedMerchant';
export interface SelectedMerchant {
  id: number;
  name: string;
}
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: SelectedMerchant | null } = { raw: null, value: null };

export function getSelectedMerchant(): SelectedMerchant | null {
  const raw = sessionStorage.getItem(KEY);
  if (raw !== cached.raw) {
    let value: SelectedMerchant | null = null;
    try {
      value = raw ? (JSON.parse(raw) as SelectedMerchant) : null;
    } catch {
      value = null;
    }
    cached = { raw, value };
  }
  return cached.value;
}

export function setSelectedMerchant(m: SelectedMerchant | null): void {
  if (m) sessionStorage.setItem(KEY, JSON.stringify(m));
  else sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

export function clearSelectedMerchant(): void {
  setSelectedMerchant(null);
}

export function useSelectedMerchant(): SelectedMerchant | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSelectedMerchant,
    () => null,
  );
}
