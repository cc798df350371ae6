import type { CaseWriteResult, QcActionBody } from '@portal/contracts';
import { apiPatch } from '../../cases/api/request';

/** PATCH /cm/cases/qc {id, action_id}: 1 approve, 2 Do Not Represent. */
export function qcAction(body: QcActionBody): Promise<CaseWriteResult> {
  return apiPatch<CaseWriteResult>('cm/cases/qc', body);
}
