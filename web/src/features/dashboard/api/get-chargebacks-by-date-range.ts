import type { DateCountRows } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/dashboard/chargebacks-by-date-range -> {data: [{date, count}]}. */
export function getChargebacksByDateRange(
  clientId: number | undefined,
  dateRange: string,
  signal?: AbortSignal,
) {
  return api
    .get<DateCountRows>(
      'cm/cases/dashboard/chargebacks-by-date-range',
      { client_id: clientId, date_range: dateRange },
      signal,
    )
    .then((r) => r.data);
}

export function getChargebacksByDateRangeQueryOptions(clientId: number | undefined, dateRange: string) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'by-date-range', clientId, dateRange] as const,
    queryFn: ({ signal }) => getChargebacksByDateRange(clientId, dateRange, signal),
  });
}

export function useChargebacksByDateRange(clientId: number | undefined, dateRange: string) {
  return useQuery(getChargebacksByDateRangeQueryOptions(clientId, dateRange));
}
