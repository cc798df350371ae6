import type { FraudPct } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/reports/cases-fraud-pct (client_id, date_range 'from|to'). */
export function getFraudPct(clientId: number | undefined, dateRange: string, signal?: AbortSignal) {
  return api.get<FraudPct>(
    'cm/cases/reports/cases-fraud-pct',
    { client_id: clientId, date_range: dateRange },
    signal,
  );
}

export function getFraudPctQueryOptions(clientId: number | undefined, dateRange: string) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'fraud-pct', clientId, dateRange] as const,
    queryFn: ({ signal }) => getFraudPct(clientId, dateRange, signal),
  });
}

export function useFraudPct(clientId: number | undefined, dateRange: string, enabled = true) {
  return useQuery({ ...getFraudPctQueryOptions(clientId, dateRange), enabled });
}
