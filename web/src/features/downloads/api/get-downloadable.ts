import type { Downloadable } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /docs/downloadable?loc=: a short-lived link to a stored file of the tenant (an export, ...). */
export function getDownloadable(loc: string, signal?: AbortSignal) {
  return api.get<Downloadable>('docs/downloadable', { loc }, signal);
}
