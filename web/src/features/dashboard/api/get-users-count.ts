import type { UserList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET users/users (merchant_id, limit 0) -> pagination.total. */
export function getUsersCount(merchantId: number, signal?: AbortSignal) {
  return api
    .get<UserList>('users/users', { merchant_id: merchantId, limit: 0 }, signal)
    .then((r) => r.pagination.total);
}

export function getUsersCountQueryOptions(merchantId: number) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'users-count', merchantId] as const,
    queryFn: ({ signal }) => getUsersCount(merchantId, signal),
  });
}

export function useUsersCount(merchantId: number, enabled = true) {
  return useQuery({ ...getUsersCountQueryOptions(merchantId), enabled });
}
