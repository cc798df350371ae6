import { ASSIGNABLE_ROLE_IDS, type UserItem, type UserList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { concatPages, type OptionPage, type OptionPageRequest } from './option-pages';
import { queryRoots } from './query-keys';

export const assignableUserLabel = (u: Pick<UserItem, 'fname' | 'lname' | 'username'>) =>
  `${u.fname} ${u.lname} (${u.username})`;

/**
 * GET /users/users (merchant_id, search, role): the provider managers and agents
 * (role ids 8 and 9) a case can be assigned to (spec 2 §4).
 */
export async function getAssignableUsers(search: string, signal?: AbortSignal): Promise<UserItem[]> {
  const lists = await Promise.all(
    ASSIGNABLE_ROLE_IDS.map((role) =>
      api.get<UserList>('users/users', { role, search: search || undefined, limit: 25 }, signal),
    ),
  );
  return lists.flatMap((l) => l.data);
}

export function getAssignableUsersQueryOptions(search: string) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'assignable-users', search] as const,
    queryFn: ({ signal }) => getAssignableUsers(search, signal),
    staleTime: 60_000,
  });
}

export function useAssignableUsers(search: string) {
  return useQuery(getAssignableUsersQueryOptions(search));
}

/**
 * One page of the assignable users as select options: the users service
 * filters one role per call, so the managers and then the agents are paged as
 * one list (the total is the sum of both).
 */
export const getAssignableUserPage: (r: OptionPageRequest, signal?: AbortSignal) => Promise<OptionPage> =
  concatPages(
    ASSIGNABLE_ROLE_IDS.map((role) => async (r, signal) => {
      const page = await api.get<UserList>(
        'users/users',
        { role, search: r.search || undefined, start: r.start, limit: r.limit, sort_by: 'name' },
        signal,
      );
      return {
        options: page.data.map((u) => ({ value: String(u.id), label: assignableUserLabel(u) })),
        total: page.pagination.total,
      };
    }),
  );
