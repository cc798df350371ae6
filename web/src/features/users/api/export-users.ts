import { api, saveBlob } from '../../../lib/api-client';

/**
 * GET /users/users.csv or .xlsx with the grid's filters (export_type page or all).
 * An answer that is not a file means the export is e-mailed (spec 1 §8); returns false then.
 */
export async function exportUsers(
  format: 'csv' | 'xlsx',
  q: { merchantId?: number; search: string; start: number; limit: number; exportType: 'page' | 'all' },
): Promise<boolean> {
  const { blob, filename } = await api.download(`users/users.${format}`, {
    merchant_id: q.merchantId,
    search: q.search,
    start: q.start,
    limit: q.limit,
    export_type: q.exportType,
  });
  if (!blob) return false;
  saveBlob(blob, filename);
  return true;
}
