import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Option {
  id: number;
  label: string;
}

type Row = Record<string, unknown> & { id: number };

/** Select options of a criterion: lookups with limit 999 (spec 2 §7 'Bulk close'). */
const SOURCES: Record<string, { path: string; label: (r: Row) => string; merchant?: boolean }> = {
  currency: { path: 'cm/gen/currencies', label: (r) => `${String(r.code)} - ${String(r.currency)}` },
  cycle: { path: 'cm/gen/cycles', label: (r) => String(r.name) },
  reason_code: { path: 'cm/gen/rc', label: (r) => `${String(r.name)} ${String(r.description ?? '')}`.trim() },
  source: { path: 'cm/gen/sources', label: (r) => String(r.name) },
  card_type: { path: 'cm/gen/cctypes', label: (r) => String(r.name) },
  mid_descriptor: { path: 'cm/svc/descriptors', label: (r) => String(r.descriptor), merchant: true },
};
export type OptionSource = keyof typeof SOURCES;

export async function getCriteriaOptions(
  source: OptionSource,
  merchantId: number | undefined,
  signal?: AbortSignal,
) {
  const def = SOURCES[source]!;
  const r = await api.get<{ data: Row[] }>(
    def.path,
    { limit: 999, ...(def.merchant ? { merchant_id: merchantId } : {}) },
    signal,
  );
  return r.data.map((row) => ({ id: row.id, label: def.label(row) }));
}

export function useCriteriaOptions(source: OptionSource, merchantId: number | undefined) {
  return useQuery({
    queryKey: ['bulk-jobs', 'options', source, merchantId ?? null] as const,
    queryFn: ({ signal }) => getCriteriaOptions(source, merchantId, signal),
    staleTime: 10 * 60_000,
  });
}
