import type { Pagination } from '@portal/contracts';
import { api } from '../../../lib/api-client';

export interface MidTop5Row {
  mid: string;
  midDescriptor: string | null;
  midAlias: string | null;
  new: number;
  nonFraud: number;
  percentNonFraud: number;
  fraud: number;
  percentFraud: number;
  defended: number;
}

export interface MidsTop5Params {
  clientId?: number;
  dateRange: string;
  start: number;
  limit: number;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  search?: string;
}

/** GET cm/cases/reports/mids-top5 (client_id, date_range, limit, start, sort_by, sort_order, search). Grid-driven: no query hook. */
export function getMidsTop5(p: MidsTop5Params, signal?: AbortSignal) {
  return api.get<{ data: MidTop5Row[]; pagination: Pagination }>(
    'cm/cases/reports/mids-top5',
    {
      client_id: p.clientId,
      date_range: p.dateRange,
      start: p.start,
      limit: p.limit,
      sort_by: p.sortBy,
      sort_order: p.sortOrder,
      search: p.search,
    },
    signal,
  );
}

export function getMidsTop5QueryOptions(p: MidsTop5Params) {
  return {
    queryKey: ['dashboard', 'mids-top5', p] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => getMidsTop5(p, signal),
  };
}

/** The grid asks page by page through the query cache. */
export function useMidsTop5Fetcher() {
  return getMidsTop5;
}
