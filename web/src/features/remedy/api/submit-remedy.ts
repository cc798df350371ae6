import type { RemedyAnswer, RemedyBody } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

/** POST /cm/cases/{id}/ce (spec 2 §7): the remedy body; failures carry data.violations. */
export function submitRemedy(caseId: number, body: RemedyBody): Promise<RemedyAnswer> {
  return api.post<RemedyAnswer>(`cm/cases/${caseId}/ce`, body);
}

export function useSubmitRemedy(caseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RemedyBody) => submitRemedy(caseId, body),
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
