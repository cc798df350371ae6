import type { WinOddsStatus, WinOddsTrainAnswer } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/win-odds: the tenant's model, its holdout evaluation and the latest training job. */
export function getWinOdds(signal?: AbortSignal) {
  return api.get<WinOddsStatus>('cm/win-odds', undefined, signal);
}

const running = (s: WinOddsStatus | undefined) => s?.job?.state === 'queued' || s?.job?.state === 'running';

export const winOddsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.winOdds, 'status'] as const,
    queryFn: ({ signal }) => getWinOdds(signal),
    // While a training job runs, follow it.
    refetchInterval: (q) => (running(q.state.data) ? 1500 : false),
  });

export function useWinOdds() {
  return useQuery(winOddsQueryOptions());
}

/** POST /cm/win-odds/train ('Retrain now'); the case lists show the new scores once it is done. */
export function useRetrain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WinOddsTrainAnswer>('cm/win-odds/train'),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: winOddsQueryOptions().queryKey });
      await qc.invalidateQueries({ queryKey: queryRoots.cases });
    },
  });
}
