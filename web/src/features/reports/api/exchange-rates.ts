import type { ExchangeRateSummary, ExchangeRatesUploadResult } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET cm/money/rates: the loaded days and newest rate per currency (provider staff). */
export function getExchangeRatesQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.reports, 'exchange-rates'] as const,
    queryFn: ({ signal }) => api.get<ExchangeRateSummary>('cm/money/rates', {}, signal),
  });
}

export function useExchangeRates(enabled: boolean) {
  return useQuery({ ...getExchangeRatesQueryOptions(), enabled });
}

/** POST cm/money/rates {csv}: new rates reprice the cases, so every report is read again. */
export function useUploadExchangeRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => api.post<ExchangeRatesUploadResult>('cm/money/rates', { csv }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryRoots.reports }),
        queryClient.invalidateQueries({ queryKey: queryRoots.dashboard }),
      ]),
  });
}
