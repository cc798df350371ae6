import type { CaseList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Status groups 1 and 2 are New / expiring (spec 1 §3.3). */
export const EXPIRING_STATUS_GROUPS = '1,2';

/** GET cm/cases (status_group_id, limit 0, due_date_range) -> pagination.total. */
export function getExpiringCount(clientId: number | undefined, dueDateRange: string, signal?: AbortSignal) {
  return api
    .get<CaseList>(
      'cm/cases',
      {
        client_id: clientId,
        status_group_id: EXPIRING_STATUS_GROUPS,
        limit: 0,
        due_date_range: dueDateRange,
      },
      signal,
    )
    .then((r) => r.pagination.total);
}

export function getExpiringCountQueryOptions(clientId: number | undefined, dueDateRange: string) {
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'expiring', clientId, dueDateRange] as const,
    queryFn: ({ signal }) => getExpiringCount(clientId, dueDateRange, signal),
  });
}

export function useExpiringCount(clientId: number | undefined, dueDateRange: string, enabled = true) {
  return useQuery({ ...getExpiringCountQueryOptions(clientId, dueDateRange), enabled });
}
