import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AlertsReport,
  CurrencyList,
  KpiAlerts,
  KpiChargebacks,
  MidHealthList,
  MidHealthQuery,
  MidList,
  MonitoringReport,
  MtdReport,
  ReconciliationCountResult,
  ReconciliationFlagResult,
  ReconciliationList,
  RecoveredRevenueRows,
  WinRateRows,
} from '@portal/contracts';
import { api, saveBlob, type Params } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/cases/reports/{path}: every report of spec 3 §7 and issue 18, keyed by its parameters. */
export function getReport<T>(path: string, params: Params, signal?: AbortSignal) {
  return api.get<T>(`cm/cases/reports/${path}`, params, signal);
}

/** Every query of one report, whatever its parameters: a write to the report's rows refreshes them. */
export const reportKey = (path: string) => [...queryRoots.reports, path] as const;

export function getReportQueryOptions<T>(path: string, params: Params) {
  return queryOptions({
    queryKey: [...reportKey(path), params] as const,
    queryFn: ({ signal }) => getReport<T>(path, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useReport<T>(path: string, params: Params, enabled = true) {
  return useQuery({ ...getReportQueryOptions<T>(path, params), enabled });
}

export const useKpiChargebacks = (p: Params) => useReport<KpiChargebacks>('res-kpi/chargebacks', p);
export const useKpiAlerts = (p: Params) => useReport<KpiAlerts>('res-kpi/alerts', p);
export const useMtd = (p: Params) => useReport<MtdReport>('mtd', p);
export const useAlertsReport = (p: Params) => useReport<AlertsReport>('alerts', p);
export const useMonitoring = (p: Params) => useReport<MonitoringReport>('monitoring', p);
export const useWinRate = (p: Params) => useReport<WinRateRows>('win-rate', p);
export const useReconciliation = (p: Params) => useReport<ReconciliationList>('reconciliation', p);
export const useRecoveredRevenue = (p: Params) => useReport<RecoveredRevenueRows>('recovered-revenue', p);

export function getMidHealth(q: MidHealthQuery, signal?: AbortSignal) {
  return getReport<MidHealthList>('mid-health', { ...q }, signal);
}

/** Downloads a report's CSV (mid-health.csv, reconciliation.csv, recovered-revenue.csv) with its filters. */
export async function downloadReportCsv(
  name: 'mid-health' | 'reconciliation' | 'recovered-revenue',
  params: Params,
) {
  const { blob, filename } = await api.download(`cm/cases/reports/${name}.csv`, params);
  if (blob) saveBlob(blob, filename);
}

export const flagReconciliation = (flags: { processor_id: number; date: string; comment: string }[]) =>
  api.post<ReconciliationFlagResult>('cm/cases/reports/reconciliation/flag/bulk', { flags });
export const unflagReconciliation = (ids: number[]) =>
  api.post<ReconciliationCountResult>('cm/cases/reports/reconciliation/flag/delete', { ids });
export const reviewReconciliation = (rows: { processor_id: number; date: string }[]) =>
  api.post<ReconciliationCountResult>('cm/cases/reports/reconciliation/review', { rows });

/** Type-ahead options: MIDs (GET /cm/mids) and currencies (GET /cm/gen/currencies), searched. */
export interface Option {
  id: number;
  label: string;
}

export async function searchMids(search: string, merchantId: number | undefined, signal?: AbortSignal) {
  const r = await api.get<MidList>('cm/mids', { search, merchant_id: merchantId, limit: 25 }, signal);
  return r.data.map((m): Option => ({ id: m.id, label: m.alias ? `${m.mid} (${m.alias})` : m.mid }));
}

/** Preferred currencies first (spec 3 §2: USD, GBP, EUR), then by code. */
const PREFERRED_CURRENCIES = ['USD', 'GBP', 'EUR'];

export async function searchCurrencies(search: string, signal?: AbortSignal) {
  const r = await api.get<CurrencyList>('cm/gen/currencies', { search, limit: 999 }, signal);
  const rank = (code: string) => {
    const i = PREFERRED_CURRENCIES.indexOf(code);
    return i === -1 ? PREFERRED_CURRENCIES.length : i;
  };
  return [...r.data]
    .sort((a, b) => rank(a.code) - rank(b.code) || a.code.localeCompare(b.code))
    .map((c): Option => ({ id: c.id, label: `${c.code} - ${c.currency}` }));
}

/** A type-ahead's options for the typed text: `key` names the list (['mids', merchantId], ['currencies']). */
export function getTypeAheadQueryOptions(
  key: readonly unknown[],
  text: string,
  search: (text: string, signal: AbortSignal) => Promise<Option[]>,
) {
  return queryOptions({
    queryKey: [...queryRoots.reports, 'type-ahead', ...key, text] as const,
    queryFn: ({ signal }) => search(text, signal),
    staleTime: 60_000,
  });
}
