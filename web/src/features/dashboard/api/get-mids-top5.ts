import type { MidTop5List } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

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
  return api.get<MidTop5List>(
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
  return queryOptions({
    queryKey: [...queryRoots.dashboard, 'mids-top5', p] as const,
    queryFn: ({ signal }) => getMidsTop5(p, signal),
  });
}
