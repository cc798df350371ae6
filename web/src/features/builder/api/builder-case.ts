import type { BuilderCase, BuilderSaveAnswer, BuilderSaveBody } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /builder/case/{id}?page={n} (spec 2 §7 'Case builder'). */
export function getBuilderCase(id: number, page: number, signal?: AbortSignal) {
  return api.get<BuilderCase>(`builder/case/${id}`, { page }, signal);
}

/** Every page of one case in the builder: saving a page changes them. */
const builderCaseKey = (id: number) => [...queryRoots.builder, 'case', id] as const;

export const builderCaseQueryOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: [...builderCaseKey(id), page] as const,
    queryFn: ({ signal }) => getBuilderCase(id, page, signal),
    staleTime: 0,
  });

export function useBuilderCase(id: number, page: number) {
  return useQuery(builderCaseQueryOptions(id, page));
}

/** PUT /builder/case/{id}: one page; a refusal carries data.fields [{id, errors}]. */
export function saveBuilderPage(id: number, body: BuilderSaveBody) {
  return api.put<BuilderSaveAnswer>(`builder/case/${id}`, body);
}

export function useSaveBuilderPage(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BuilderSaveBody) => saveBuilderPage(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: builderCaseKey(id) }),
  });
}
