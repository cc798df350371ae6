import type { ProcessorSubmitAnswer } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

/** POST /docs/representment/{caseId}/processor-submit: the draft staged at Stripe is submitted. */
export function useSubmitDraft(caseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ProcessorSubmitAnswer>(`docs/representment/${caseId}/processor-submit`),
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
