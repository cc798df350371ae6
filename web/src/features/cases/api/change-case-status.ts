import { type CASE_STATUS, type CaseWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

export interface StatusInput {
  ids: number[];
  /** 4 moves to Do Not Represent, 1 reverts it. */
  statusId: typeof CASE_STATUS.DoNotRepresent | typeof CASE_STATUS.New;
}

/** Single: PATCH /cm/cases/{id} {status_id}; bulk: PUT /cm/cases/ {cases[] of id, status_id}. */
export function changeCaseStatus({ ids, statusId }: StatusInput): Promise<CaseWriteResult> {
  if (ids.length === 1) return api.patch<CaseWriteResult>(`cm/cases/${ids[0]}`, { status_id: statusId });
  return api.put<CaseWriteResult>('cm/cases/', { cases: ids.map((id) => ({ id, status_id: statusId })) });
}

export function useChangeCaseStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changeCaseStatus,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
