import type { ProfileTimeZone } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const KEY = ['profile-time-zone'] as const;

/** GET /users/profile/time-zone. */
export function useTimeZone() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get<ProfileTimeZone>('users/profile/time-zone', undefined, signal),
  });
}

/** PUT /users/profile/time-zone. */
export function useSaveTimeZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (time_zone: string | null) =>
      api.put<ProfileTimeZone>('users/profile/time-zone', { time_zone }),
    onSuccess: (saved) => client.setQueryData(KEY, saved),
  });
}
