import { ROLES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { concatPages, type OptionPage, type OptionPageRequest } from './option-pages';

export interface AssignableUser {
  id: number;
  fname: string;
  lname: string;
  username: string;
}

/** The roles a case can be assigned to: the provider's managers and agents (role ids 8 and 9). */
const ASSIGNABLE_ROLES = [ROLES.cb911_manager, ROLES.cb911_agent];

export const assignableUserLabel = (u: AssignableUser) => `${u.fname} ${u.lname} (${u.username})`;

/**
 * GET /users/users (merchant_id, search, role): the provider managers and agents
 * (role ids 8 and 9) a case can be assigned to (spec 2 §4).
 */
export async function getAssignableUsers(search: string, signal?: AbortSignal): Promise<AssignableUser[]> {
  const lists = await Promise.all(
    ASSIGNABLE_ROLES.map((role) =>
      api.get<{ data: AssignableUser[] }>(
        'users/users',
        { role, search: search || undefined, limit: 25 },
        signal,
      ),
    ),
  );
  return lists.flatMap((l) => l.data);
}

export function useAssignableUsers(search: string) {
  return useQuery({
    queryKey: ['cases', 'assignable-users', search] as const,
    queryFn: ({ signal }) => getAssignableUsers(search, signal),
    staleTime: 60_000,
  });
}

/**
 * One page of the assignable users as select options: the users service
 * filters one role per call, so the managers and then the agents are paged as
 * one list (the total is the sum of both).
 */
export const getAssignableUserPage: (r: OptionPageRequest, signal?: AbortSignal) => Promise<OptionPage> =
  concatPages(
    ASSIGNABLE_ROLES.map((role) => async (r, signal) => {
      const page = await api.get<{ data: AssignableUser[]; pagination: { total: number } }>(
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
