import type { PortalMessageData } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /users/messages: the messages for the user's role not yet acted on. */
export function getMessages(signal?: AbortSignal) {
  return api.get<{ data: PortalMessageData[] }>('users/messages', undefined, signal);
}

export function getMessagesQueryOptions(userId: number) {
  return {
    queryKey: ['messages', userId] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getMessages(signal),
  };
}

/** Loaded once per session; a failure shows no message (spec 3 §8: message failures are ignored). */
export function useMessages(userId: number) {
  return useQuery({ ...getMessagesQueryOptions(userId), staleTime: Infinity, retry: false });
}
