import { DOC_LINK_TTL_SECONDS, type RepresentmentLink } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useLiveInvalidate, useLivePollInterval } from '../../../lib/live-events';
import { queryRoots } from '../../../lib/query-keys';

/**
 * GET /docs/representment/{caseId}: the case's representment as a signed link
 * and its case comments. The link is short-lived, so it is fetched again a
 * minute before it expires while the case stays open.
 */
export function getRepresentmentQueryOptions(caseId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'representment', caseId] as const,
    queryFn: ({ signal }) => api.get<RepresentmentLink>(`docs/representment/${caseId}`, undefined, signal),
    enabled: caseId != null,
    retry: false,
    staleTime: (DOC_LINK_TTL_SECONDS - 60) * 1000,
  });
}

export function useRepresentment(caseId: number | null) {
  const options = getRepresentmentQueryOptions(caseId);
  // The compile's outcome arrives live (the case's status change or document error, issue 21).
  useLiveInvalidate(
    { kind: 'event', type: ['CASE_STATUS_CHANGED', 'DOC_VALIDATION_ERROR'], case_id: caseId ?? -1 },
    options.queryKey,
  );
  const recheck = useLivePollInterval(30_000);
  return useQuery({
    ...options,
    // While the document compiles (no link yet) it is rechecked every 30 s (spec 2 §9 recheck) only
    // while the live stream is down; a failed compile stays failed until a new upload.
    refetchInterval: (q) =>
      q.state.data && !q.state.data.link && q.state.data.versions[0]?.state !== 'failed' && recheck
        ? recheck
        : (DOC_LINK_TTL_SECONDS - 60) * 1000,
  });
}
