import type { CaseWriteResult, QcActionBody } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** PATCH /cm/cases/qc {id, action_id}: 1 approve, 2 Do Not Represent. */
export function qcAction(body: QcActionBody): Promise<CaseWriteResult> {
  return api.patch<CaseWriteResult>('cm/cases/qc', body);
}
