import type { TemplateList } from '@portal/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface TemplatesQuery {
  merchantId: number;
  start: number;
  limit: number;
}

/** Every page of every merchant's library: creating or deleting a template changes them. */
export const templatesListKey = [...queryRoots.templates, 'list'] as const;

/** GET /docs/templates (merchant_id, start, limit). */
export function getTemplates(q: TemplatesQuery, signal?: AbortSignal) {
  return api.get<TemplateList>(
    'docs/templates',
    { merchant_id: q.merchantId, start: q.start, limit: q.limit },
    signal,
  );
}

export function getTemplatesQueryOptions(q: TemplatesQuery) {
  return queryOptions({
    queryKey: [...templatesListKey, q] as const,
    queryFn: ({ signal }) => getTemplates(q, signal),
  });
}

export function useTemplates(q: TemplatesQuery) {
  return useQuery({ ...getTemplatesQueryOptions(q), placeholderData: keepPreviousData });
}
