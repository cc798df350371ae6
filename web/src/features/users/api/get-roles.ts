import type { RoleList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/roles?merchant_id: the roles this admin may give users of that company. */
export function getRoles(merchantId: number, signal?: AbortSignal) {
  return api.get<RoleList>('users/roles', { merchant_id: merchantId }, signal).then((r) => r.data);
}

export function getRolesQueryOptions(merchantId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.users, 'roles', merchantId] as const,
    queryFn: ({ signal }) => getRoles(merchantId!, signal),
    enabled: merchantId !== null,
    retry: false,
  });
}

export function useRoles(merchantId: number | null) {
  return useQuery(getRolesQueryOptions(merchantId));
}
