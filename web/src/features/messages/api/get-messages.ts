import type { PortalMessageData } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/**
 * GET /users/messages: the messages for the user's role not yet acted on, as `{data}` (an inline
 * schema of services/user account/message-routes.ts).
 */
export function getMessages(signal?: AbortSignal) {
  return api.get<{ data: PortalMessageData[] }>('users/messages', undefined, signal);
}

export function getMessagesQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [...queryRoots.messages, userId] as const,
    queryFn: ({ signal }) => getMessages(signal),
  });
}

/** Loaded once per session; a failure shows no message (spec 3 §8: message failures are ignored). */
export function useMessages(userId: number) {
  return useQuery({ ...getMessagesQueryOptions(userId), staleTime: Infinity, retry: false });
}
