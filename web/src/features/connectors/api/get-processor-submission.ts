import type { ProcessorSubmissionView } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Under the cases root: an upload (which invalidates the cases) refreshes the panel too. */
export const processorSubmissionKey = (caseId: number) =>
  [...queryRoots.cases, 'processor-submission', caseId] as const;

/**
 * GET /docs/representment/{caseId}/processor-submission: the case's submission to its processor.
 * Polled while the transport job may still change it (a submission is queued or being retried).
 */
export function getProcessorSubmissionQueryOptions(caseId: number) {
  return queryOptions({
    queryKey: processorSubmissionKey(caseId),
    queryFn: ({ signal }) =>
      api.get<ProcessorSubmissionView>(
        `docs/representment/${caseId}/processor-submission`,
        undefined,
        signal,
      ),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data?.connected) return false;
      return data.state === 'pending' ? 2000 : 5000;
    },
  });
}

export function useProcessorSubmission(caseId: number) {
  return useQuery(getProcessorSubmissionQueryOptions(caseId));
}
