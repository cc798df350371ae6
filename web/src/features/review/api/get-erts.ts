import type { ErtList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /ert/case/{caseId}/erts. */
export function getErtsQueryOptions(caseId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'erts', caseId] as const,
    queryFn: ({ signal }) => api.get<ErtList>(`ert/case/${caseId}/erts`, { limit: 25 }, signal),
    enabled: caseId != null,
  });
}

export function useErts(caseId: number | null) {
  return useQuery(getErtsQueryOptions(caseId));
}
