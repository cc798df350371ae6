import type { QcCase } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /cm/cases/qc/{id}, or /cm/cases/qc/next: the next QC case, claimed for the caller. */
export function getQcCase(id: number | 'next', signal?: AbortSignal): Promise<QcCase> {
  return api.get<QcCase>(`cm/cases/qc/${id}`, undefined, signal);
}
