import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /docs/representment/{caseId}: link and case_comments of the uploaded representment. */
export function useRepresentment(caseId: number | null) {
  return useQuery({
    queryKey: ['cases', 'representment', caseId] as const,
    queryFn: ({ signal }) =>
      api.get<{ link: string | null; case_comments?: string | null }>(
        `docs/representment/${caseId}`,
        undefined,
        signal,
      ),
    enabled: caseId != null,
    retry: false,
  });
}
