import type { ExpressResolve } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/merchants/{id}/express-resolve: the ERS client the embedded alerts form signs in with. */
export function getExpressResolve(merchantId: number, signal?: AbortSignal) {
  return api.get<ExpressResolve>(`cm/merchants/${merchantId}/express-resolve`, undefined, signal);
}

export function getExpressResolveQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: [...queryRoots.alerts, 'express-resolve', merchantId] as const,
    queryFn: ({ signal }) => getExpressResolve(merchantId, signal),
  });
}
