import type { CompiledPacket } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /docs/representment/{caseId}/packet: the newest compiled packet, page by page with provenance. */
export const compiledPacketQueryOptions = (caseId: number) =>
  queryOptions({
    queryKey: [...queryRoots.cases, 'packet', caseId],
    queryFn: ({ signal }) =>
      api.get<CompiledPacket>(`docs/representment/${caseId}/packet`, undefined, signal),
    retry: false,
  });

export const useCompiledPacket = (caseId: number) => useQuery(compiledPacketQueryOptions(caseId));
