import type { ProfileTimeZone } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /users/profile/time-zone. */
export function getTimeZoneQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.profile, 'time-zone'] as const,
    queryFn: ({ signal }) => api.get<ProfileTimeZone>('users/profile/time-zone', undefined, signal),
  });
}

export function useTimeZone() {
  return useQuery(getTimeZoneQueryOptions());
}

/** PUT /users/profile/time-zone. */
export function useSaveTimeZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (time_zone: string | null) =>
      api.put<ProfileTimeZone>('users/profile/time-zone', { time_zone }),
    onSuccess: (saved) => client.setQueryData(getTimeZoneQueryOptions().queryKey, saved),
  });
}
