import type { CardTypeCountRows } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

const CARD_TYPE_NAMES = 'Visa,Mastercard,Discover,Amex';

/** GET cm/cases/reports/chargebacks-by-card-type (client_id, date_range, names) -> {data: [{name, count}]}. */
export function getChargebacksByCardType(
  clientId: number | undefined,
  dateRange: string,
  signal?: AbortSignal,
) {
  return api
    .get<CardTypeCountRows>(
      'cm/cases/reports/chargebacks-by-card-type',
      { client_id: clientId, date_range: dateRange, names: CARD_TYPE_NAMES },
      signal,
    )
    .then((r) => r.data);
}

export function getChargebacksByCardTypeQueryOptions(clientId: number | undefined, dateRange: string) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'by-card-type', clientId, dateRange] as const,
    queryFn: ({ signal }) => getChargebacksByCardType(clientId, dateRange, signal),
  });
}

export function useChargebacksByCardType(clientId: number | undefined, dateRange: string, enabled = true) {
  return useQuery({ ...getChargebacksByCardTypeQueryOptions(clientId, dateRange), enabled });
}
