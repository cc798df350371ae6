import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET cm/cases/dashboard/chargebacks-mtd -> {count}. */
export function getChargebacksMtd(clientId?: number, signal?: AbortSignal) {
  return api.get<{ count: number }>('cm/cases/dashboard/chargebacks-mtd', { client_id: clientId }, signal);
}

export function getChargebacksMtdQueryOptions(clientId?: number) {
  return queryOptions({
    queryKey: ['dashboard', 'chargebacks-mtd', clientId],
    queryFn: ({ signal }) => getChargebacksMtd(clientId, signal),
  });
}

export function useChargebacksMtd(clientId?: number, enabled = true) {
  return useQuery({ ...getChargebacksMtdQueryOptions(clientId), enabled });
}
