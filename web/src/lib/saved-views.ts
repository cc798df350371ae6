import type {
  SavedView,
  SavedViewCreate,
  SavedViewList,
  SavedViewsResponse,
  SavedViewUpdate,
} from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { queryRoots } from './query-keys';

/** The saved views calls of the user service (issue 21), one query key per list kind. */
export function getSavedViews(list: SavedViewList, signal?: AbortSignal) {
  return api.get<SavedViewsResponse>('users/saved-views', { list }, signal);
}

export function getSavedViewsQueryOptions(list: SavedViewList) {
  return queryOptions({
    queryKey: [...queryRoots.savedViews, list] as const,
    queryFn: ({ signal }) => getSavedViews(list, signal).then((r) => r.data),
    staleTime: 30_000,
  });
}

export function useSavedViews(list: SavedViewList, enabled = true) {
  return useQuery({ ...getSavedViewsQueryOptions(list), enabled });
}

function useViewMutation<T>(list: SavedViewList, fn: (input: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: getSavedViewsQueryOptions(list).queryKey }),
  });
}

export const useCreateSavedView = (list: SavedViewList) =>
  useViewMutation(list, (body: SavedViewCreate) => api.post<SavedView>('users/saved-views', body));

export const useUpdateSavedView = (list: SavedViewList) =>
  useViewMutation(list, ({ id, ...change }: SavedViewUpdate & { id: number }) =>
    api.patch<SavedView>(`users/saved-views/${id}`, change),
  );

export const useDeleteSavedView = (list: SavedViewList) =>
  useViewMutation(list, (id: number) => api.delete<null>(`users/saved-views/${id}`));
