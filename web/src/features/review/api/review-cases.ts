import type { CaseWriteResult } from '@portal/contracts';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

export type ReviewInput =
  { ids: number[]; actionId: number; note?: string } | { ids: number[]; assignId: number | null };

/** PATCH /cm/review: cases[] of id, action_id and optional note; or cases[] of id and assign_id. */
export function reviewCases(input: ReviewInput): Promise<CaseWriteResult> {
  const cases =
    'actionId' in input
      ? input.ids.map((id) => ({
          id,
          action_id: input.actionId,
          ...(input.note ? { note: input.note } : {}),
        }))
      : input.ids.map((id) => ({ id, assign_id: input.assignId }));
  return api.patch<CaseWriteResult>('cm/review', { cases });
}

export function useReviewCases() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: reviewCases,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
