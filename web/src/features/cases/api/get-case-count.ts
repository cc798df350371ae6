import { queryOptions, useQuery } from '@tanstack/react-query';
import { useLiveInvalidate } from '../../../lib/live-events';
import { queryRoots } from '../../../lib/query-keys';
import { getCases, type CaseQuery } from './get-cases';

/** GET /cm/cases with limit 0: only pagination.total (the filter panel counts). */
export async function getCaseCount(q: CaseQuery, signal?: AbortSignal): Promise<number> {
  const r = await getCases({ ...q, start: 0, limit: 0 }, signal);
  return r.pagination.total;
}

export function getCaseCountQueryOptions(q: CaseQuery) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'count', q] as const,
    queryFn: ({ signal }) => getCaseCount(q, signal),
    staleTime: 30_000,
  });
}

/**
 * Case changes of the user's scope arrive live (issue 21): each count refetches then (at most once a
 * second: a bulk change sends hundreds of events). Counts were never polled, so nothing polls while
 * the stream is down either; they stay fresh for 30 s as before.
 */
export function useCaseCount(q: CaseQuery, enabled = true) {
  const options = getCaseCountQueryOptions(q);
  useLiveInvalidate(
    { kind: 'event', type: ['CASE_CREATED', 'CASE_STATUS_CHANGED', 'CASE_VERDICT_CHANGED'] },
    options.queryKey,
    1000,
  );
  return useQuery({ ...options, enabled });
}
