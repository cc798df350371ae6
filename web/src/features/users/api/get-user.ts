import type { UserItem } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/users/{id}. */
export function getUser(id: number, signal?: AbortSignal) {
  return api.get<UserItem>(`users/users/${id}`, undefined, signal);
}

export function getUserQueryOptions(id: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'one', id] as const,
    queryFn: ({ signal }) => getUser(id!, signal),
    enabled: id !== null,
  });
}

export function useUser(id: number | null) {
  return useQuery(getUserQueryOptions(id));
}
