import type { CaseCommentWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

/** POST /cm/cases/{id}/comments {comment}. */
export function addCaseComment({ id, comment }: { id: number; comment: string }) {
  return api.post<CaseCommentWriteResult>(`cm/cases/${id}/comments`, { comment });
}

export function useAddCaseComment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addCaseComment,
    // The case's comments and history, and the lists (the row's `comments`).
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
