import type { TemplateList } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface TemplatesQuery {
  merchantId: number;
  start: number;
  limit: number;
}

/** GET /docs/templates (merchant_id, start, limit). */
export function getTemplates(q: TemplatesQuery, signal?: AbortSignal) {
  return api.get<TemplateList>(
    'docs/templates',
    { merchant_id: q.merchantId, start: q.start, limit: q.limit },
    signal,
  );
}

export function getTemplatesQueryOptions(q: TemplatesQuery) {
  return {
    queryKey: ['templates', 'list', q.merchantId, q.start, q.limit] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getTemplates(q, signal),
  };
}

export function useTemplates(q: TemplatesQuery) {
  return useQuery({ ...getTemplatesQueryOptions(q), placeholderData: keepPreviousData });
}
