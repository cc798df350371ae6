import type {
  SavedView,
  SavedViewCreate,
  SavedViewList,
  SavedViewsResponse,
  SavedViewUpdate,
} from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/** The saved views calls of the user service (issue 21), one query key per list kind. */
export const savedViewsQueryKey = (list: SavedViewList) => ['saved-views', list] as const;

export function getSavedViews(list: SavedViewList, signal?: AbortSignal) {
  return api.get<SavedViewsResponse>('users/saved-views', { list }, signal);
}

export function useSavedViews(list: SavedViewList, enabled = true) {
  return useQuery({
    queryKey: savedViewsQueryKey(list),
    queryFn: ({ signal }) => getSavedViews(list, signal).then((r) => r.data),
    staleTime: 30_000,
    enabled,
  });
}

function useViewMutation<T>(list: SavedViewList, fn: (input: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: savedViewsQueryKey(list) }),
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
