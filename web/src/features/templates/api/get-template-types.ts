import type { TemplateTypes } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /docs/templates/types: template types and the document types a template may be filed as. */
export function getTemplateTypes(signal?: AbortSignal) {
  return api.get<TemplateTypes>('docs/templates/types', undefined, signal);
}

export function getTemplateTypesQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.templates, 'types'] as const,
    queryFn: ({ signal }) => getTemplateTypes(signal),
    staleTime: 60 * 60 * 1000,
  });
}

export function useTemplateTypes() {
  return useQuery(getTemplateTypesQueryOptions());
}
