import type { Template, TemplateList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryRoots } from './query-keys';

/** GET /docs/templates (merchant_id, start 0, limit 999): the merchant's library; empty when the call fails. */
export async function getRepresentmentTemplates(
  merchantId: number,
  signal?: AbortSignal,
): Promise<Template[]> {
  try {
    const r = await api.get<TemplateList>(
      'docs/templates',
      { merchant_id: merchantId, start: 0, limit: 999 },
      signal,
    );
    return r.data;
  } catch {
    return [];
  }
}

export function getRepresentmentTemplatesQueryOptions(merchantId: number | null) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'upload-templates', merchantId] as const,
    queryFn: ({ signal }) => getRepresentmentTemplates(merchantId!, signal),
    enabled: merchantId != null,
    staleTime: 60_000,
  });
}

export function useRepresentmentTemplates(merchantId: number | null) {
  return useQuery(getRepresentmentTemplatesQueryOptions(merchantId));
}
