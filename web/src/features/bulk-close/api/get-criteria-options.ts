import type {
  AlertDescriptorList,
  CardTypeList,
  CurrencyList,
  CycleList,
  ReasonCodeList,
  SourceList,
} from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface Option {
  id: number;
  label: string;
}

/** One criterion's options: a list read with limit 999 (the merchant's own where `merchant` is set). */
function criterion<L extends { data: { id: number }[] }>(
  path: string,
  label: (row: L['data'][number]) => string,
  merchant = false,
) {
  return async (merchantId: number | undefined, signal?: AbortSignal): Promise<Option[]> => {
    const r = await api.get<L>(
      path,
      { limit: 999, ...(merchant ? { merchant_id: merchantId } : {}) },
      signal,
    );
    return r.data.map((row) => ({ id: row.id, label: label(row) }));
  };
}

/** Select options of each criterion: lookups with limit 999 (spec 2 §7 'Bulk close'). */
const SOURCES = {
  currency: criterion<CurrencyList>('cm/gen/currencies', (r) => `${r.code} - ${r.currency}`),
  cycle: criterion<CycleList>('cm/gen/cycles', (r) => r.name),
  reason_code: criterion<ReasonCodeList>('cm/gen/rc', (r) => `${r.name} ${r.description}`.trim()),
  source: criterion<SourceList>('cm/gen/sources', (r) => r.name),
  card_type: criterion<CardTypeList>('cm/gen/cctypes', (r) => r.name),
  mid_descriptor: criterion<AlertDescriptorList>('cm/svc/descriptors', (r) => r.descriptor, true),
};
export type OptionSource = keyof typeof SOURCES;

export function getCriteriaOptions(
  source: OptionSource,
  merchantId: number | undefined,
  signal?: AbortSignal,
) {
  return SOURCES[source](merchantId, signal);
}

export function getCriteriaOptionsQueryOptions(source: OptionSource, merchantId: number | undefined) {
  return queryOptions({
    queryKey: [...queryRoots.bulkJobs, 'options', source, merchantId ?? null] as const,
    queryFn: ({ signal }) => getCriteriaOptions(source, merchantId, signal),
    staleTime: 10 * 60_000,
  });
}

export function useCriteriaOptions(source: OptionSource, merchantId: number | undefined) {
  return useQuery(getCriteriaOptionsQueryOptions(source, merchantId));
}
