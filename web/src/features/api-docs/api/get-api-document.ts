import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The documents the gateway serves (GET /api/openapi/{name}), in the order the screen offers them. */
export const API_DOCUMENTS = [
  { name: 'case', label: 'Cases, alerts, merchants and reports' },
  { name: 'user', label: 'Users and identity' },
  { name: 'docs', label: 'Documents' },
  { name: 'builder', label: 'Case builder' },
  { name: 'gateway', label: 'Gateway: tenant and configuration' },
] as const;
export type ApiDocumentName = (typeof API_DOCUMENTS)[number]['name'];

export function getApiDocument(name: ApiDocumentName, signal?: AbortSignal) {
  return api.get<Record<string, unknown>>(`openapi/${name}`, undefined, signal);
}

export function getApiDocumentQueryOptions(name: ApiDocumentName) {
  return queryOptions({
    queryKey: [...queryRoots.apiDocs, name] as const,
    queryFn: ({ signal }) => getApiDocument(name, signal),
  });
}

export function useApiDocument(name: ApiDocumentName) {
  return useQuery({ ...getApiDocumentQueryOptions(name), staleTime: 5 * 60_000 });
}
