import type { CaseWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

export interface AssignInput {
  ids: number[];
  /** null unassigns. */
  userId: number | null;
}

/** Single: PATCH /cm/cases/{id} {user_id}; bulk: PUT /cm/cases {cases[] of id, user_id}. */
export function assignCases({ ids, userId }: AssignInput): Promise<CaseWriteResult> {
  if (ids.length === 1) return api.patch<CaseWriteResult>(`cm/cases/${ids[0]}`, { user_id: userId });
  return api.put<CaseWriteResult>('cm/cases', { cases: ids.map((id) => ({ id, user_id: userId })) });
}

export function useAssignCases() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: assignCases,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
