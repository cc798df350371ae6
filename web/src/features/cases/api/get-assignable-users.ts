import { ROLES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface AssignableUser {
  id: number;
  fname: string;
  lname: string;
  username: string;
}

/**
 * GET /users/users (merchant_id, search, role): the provider managers and agents
 * (role ids 8 and 9) a case can be assigned to (spec 2 §4).
 */
export async function getAssignableUsers(search: string, signal?: AbortSignal): Promise<AssignableUser[]> {
  const lists = await Promise.all(
    [ROLES.cb911_manager, ROLES.cb911_agent].map((role) =>
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
