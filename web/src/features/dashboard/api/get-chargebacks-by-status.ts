import type { StatusCountRows } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/reports/chargebacks-by-status (client_id, date_range) -> {data: [{case_status, count}]}. */
export function getChargebacksByStatus(
  clientId: number | undefined,
  dateRange: string,
  signal?: AbortSignal,
) {
  return api
    .get<StatusCountRows>(
      'cm/cases/reports/chargebacks-by-status',
      { client_id: clientId, date_range: dateRange },
      signal,
    )
    .then((r) => r.data);
}

export function getChargebacksByStatusQueryOptions(clientId: number | undefined, dateRange: string) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'by-status', clientId, dateRange] as const,
    queryFn: ({ signal }) => getChargebacksByStatus(clientId, dateRange, signal),
  });
}

export function useChargebacksByStatus(clientId: number | undefined, dateRange: string, enabled = true) {
  return useQuery({ ...getChargebacksByStatusQueryOptions(clientId, dateRange), enabled });
}
