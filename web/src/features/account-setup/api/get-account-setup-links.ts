import type { AccountSetupLinks } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/account-setup/links: the setup steps the signed-in user may open. */
export function getAccountSetupLinks(signal?: AbortSignal) {
  return api.get<AccountSetupLinks>('users/account-setup/links', undefined, signal);
}

export function getAccountSetupLinksQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...queryRoots.accountSetup, 'links', userId] as const,
    queryFn: ({ signal }) => getAccountSetupLinks(signal),
  });
}

/** Asked only once `enabled` (the modal waits ACCOUNT_SETUP_DELAY_MS after opening, spec 3 §9). */
export function useAccountSetupLinks(userId: number, enabled: boolean) {
  return useQuery({ ...getAccountSetupLinksQueryOptions(userId), enabled, retry: false, staleTime: 60_000 });
}
