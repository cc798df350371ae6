import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET cm/cases/reports/chargebacks-by-status (client_id, date_range) -> {data: [{case_status, count}]}. */
export function getChargebacksByStatus(
  clientId: number | undefined,
  dateRange: string,
  signal?: AbortSignal,
) {
  return api
    .get<{ data: { case_status: string; count: number }[] }>(
      'cm/cases/reports/chargebacks-by-status',
      { client_id: clientId, date_range: dateRange },
      signal,
    )
    .then((r) => r.data);
}

export function getChargebacksByStatusQueryOptions(clientId: number | undefined, dateRange: string) {
  return queryOptions({
    queryKey: ['dashboard', 'by-status', clientId, dateRange],
    queryFn: ({ signal }) => getChargebacksByStatus(clientId, dateRange, signal),
  });
}

export function useChargebacksByStatus(clientId: number | undefined, dateRange: string, enabled = true) {
  return useQuery({ ...getChargebacksByStatusQueryOptions(clientId, dateRange), enabled });
}
