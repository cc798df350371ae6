import type { CaseEditBody, CaseWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

export type EditInput = { id: number; body: CaseEditBody } | { ids: number[]; verdictId: number };

/** Single: PATCH /cm/cases/{id}/edit; bulk verdict: PUT /cm/cases/edit {cases[] of id, verdict_id}. */
export function editCases(input: EditInput): Promise<CaseWriteResult> {
  if ('body' in input) return api.patch<CaseWriteResult>(`cm/cases/${input.id}/edit`, input.body);
  return api.put<CaseWriteResult>('cm/cases/edit', {
    cases: input.ids.map((id) => ({ id, verdict_id: input.verdictId })),
  });
}

export function useEditCases() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: editCases,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
