import type { UserList } from '@portal/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface UsersQuery {
  merchantId?: number;
  start: number;
  limit: number;
  search: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
}

/** GET /users/users (merchant_id, start, limit, sort_by, sort_order, search). */
export function getUsers(q: UsersQuery, signal?: AbortSignal) {
  return api.get<UserList>(
    'users/users',
    {
      merchant_id: q.merchantId,
      start: q.start,
      limit: q.limit,
      search: q.search,
      sort_by: q.sortBy,
      sort_order: q.sortOrder,
    },
    signal,
  );
}

export function getUsersQueryOptions(q: UsersQuery) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'list', q] as const,
    queryFn: ({ signal }) => getUsers(q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(q: UsersQuery) {
  return useQuery(getUsersQueryOptions(q));
}
