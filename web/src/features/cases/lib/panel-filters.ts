import type { CaseQuery } from '../api/get-cases';

/** The filter panel's rows (spec 2 §2.2), by the key the list's URL carries (`panel=`). */
export const PANEL_KEYS = ['rfi', 'primary', 'secondary', 'fraud', 'non-fraud', 'expire'] as const;
export type PanelKey = (typeof PANEL_KEYS)[number];

/** One filter of the panel: its tab title, row label and query. */
export interface PanelFilter {
  key: PanelKey;
  title: string;
  label: string;
  query: CaseQuery;
}

export const DEFAULT_EXPIRE_DAYS = 7;

export function panelFilters(days: number): PanelFilter[] {
  return [
    { key: 'rfi', title: 'Retrievals (RFIs)', label: 'Retrievals Request', query: { cycle: '9' } },
    { key: 'primary', title: 'Primary Cycle', label: 'First Chargeback', query: { cycle: '1' } },
    { key: 'secondary', title: 'Secondary Cycle', label: 'Second Chargeback', query: { cycle: '2' } },
    {
      key: 'fraud',
      title: 'Primary Fraud',
      label: 'First Chargeback fraud',
      query: { cycle: '1', is_fraud: 1 },
    },
    {
      key: 'non-fraud',
      title: 'Primary Non-Fraud',
      label: 'First Chargeback non-fraud',
      query: { cycle: '1', is_fraud: 0 },
    },
    {
      key: 'expire',
      title: 'Primary Cases Due to Expire in',
      label: `Primary Cases Due to Expire in ${days} day(s)`,
      query: { filter_group: 'primary_case_expire', primary_case_due_days: days },
    },
  ];
}

export function panelFilter(key: PanelKey | null, days: number): PanelFilter | null {
  return panelFilters(days).find((f) => f.key === key) ?? null;
}
