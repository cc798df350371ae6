import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The PDF of a preview or of a compiled packet (its path under /api, which names its hash). */
export const packetPdfQueryOptions = (path: string) =>
  queryOptions({
    queryKey: ['evidence-preview', 'pdf', path],
    queryFn: ({ signal }) => api.bytes(path, signal),
    staleTime: Infinity,
    gcTime: 60_000,
  });

export const usePacketPdf = (path: string) => useQuery(packetPdfQueryOptions(path));
