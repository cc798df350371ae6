import { api, saveBlob, type Params } from '../../../lib/api-client';
import type { AlertQuery } from './get-alerts';

/**
 * GET /cm/svc/alerts.xlsx (or .csv) with the grid's filters, all rows. False
 * when the server answered with something other than a file (e-mailed).
 */
export async function exportAlerts(format: 'xlsx' | 'csv', query: AlertQuery): Promise<boolean> {
  const { start: _s, limit: _l, ...filters } = query;
  const { blob, filename } = await api.download(`cm/svc/alerts.${format}`, {
    ...(filters as Params),
    export_type: 'all',
  });
  if (!blob) return false;
  saveBlob(blob, filename);
  return true;
}
