import type { AlertList, AlertSortColumn } from '@portal/contracts';
import { api, type Params } from '../../../lib/api-client';

export interface AlertQuery {
  merchant_id?: number;
  descriptor?: string;
  /** 'yyyy-MM-dd|yyyy-MM-dd' */
  date_range: string;
  search?: string;
  start?: number;
  limit?: number;
  sort_by?: AlertSortColumn;
  sort_order?: 'asc' | 'desc';
}

/** GET /cm/svc/alerts: merchant_id, descriptor, date_range plus grid paging (spec 2 §7). */
export function getAlerts(query: AlertQuery, signal?: AbortSignal) {
  return api.get<AlertList>('cm/svc/alerts', query as unknown as Params, signal);
}
