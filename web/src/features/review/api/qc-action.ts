import type { CaseWriteResult, QcActionBody, QcDnrBody } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** PATCH /cm/cases/qc {id, action_id: 1}: approve; the representment goes to transport. */
export function qcAction(body: QcActionBody): Promise<CaseWriteResult> {
  return api.patch<CaseWriteResult>('cm/cases/qc', body);
}

/** PATCH /cm/cases/qc/dnr {id}: Do Not Represent (a loss); the gateway requires the tenant flag. */
export function qcDoNotRepresent(body: QcDnrBody): Promise<CaseWriteResult> {
  return api.patch<CaseWriteResult>('cm/cases/qc/dnr', body);
}
