import type { Ert } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /ert/case/{caseId}/erts. */
export function useErts(caseId: number | null) {
  return useQuery({
    queryKey: ['cases', 'erts', caseId] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: Ert[]; pagination: { total: number } }>(
        `ert/case/${caseId}/erts`,
        { limit: 25 },
        signal,
      ),
    enabled: caseId != null,
  });
}
