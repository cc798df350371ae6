import type { BuilderCase, BuilderSaveBody } from '@portal/contracts';
import { useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /builder/case/{id}?page={n} (spec 2 §7 'Case builder'). */
export function getBuilderCase(id: number, page: number, signal?: AbortSignal) {
  return api.get<BuilderCase>(`builder/case/${id}`, { page }, signal);
}

export const builderCaseQueryOptions = (id: number, page: number) => ({
  queryKey: ['builder', 'case', id, page] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => getBuilderCase(id, page, signal),
  staleTime: 0,
});

export function useBuilderCase(id: number, page: number) {
  return useQuery(builderCaseQueryOptions(id, page));
}

export interface SaveAnswer {
  message: string;
  page: number;
  product_id: number | null;
  type_id: number | null;
  last_updated: { timestamp: string; username: string | null };
}

/** PUT /builder/case/{id}: one page; a refusal carries data.fields [{id, errors}]. */
export function saveBuilderPage(id: number, body: BuilderSaveBody) {
  return api.put<SaveAnswer>(`builder/case/${id}`, body);
}

export function useSaveBuilderPage(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BuilderSaveBody) => saveBuilderPage(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['builder', 'case', id] }),
  });
}
