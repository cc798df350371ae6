import type { CountResult } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/cases/dashboard/chargebacks-mtd -> {count}. */
export function getChargebacksMtd(clientId?: number, signal?: AbortSignal) {
  return api.get<CountResult>('cm/cases/dashboard/chargebacks-mtd', { client_id: clientId }, signal);
}

export function getChargebacksMtdQueryOptions(clientId?: number) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'chargebacks-mtd', clientId] as const,
    queryFn: ({ signal }) => getChargebacksMtd(clientId, signal),
  });
}

export function useChargebacksMtd(clientId?: number, enabled = true) {
  return useQuery({ ...getChargebacksMtdQueryOptions(clientId), enabled });
}
