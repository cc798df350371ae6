import { ERT_DEFAULTS, type ErtResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getErtsQueryOptions } from './get-erts';

export interface AddErtInput {
  caseId: number;
  merchantId: number;
  userId: number | null;
  content: string;
}

/** POST /ert/case/{caseId}/erts with the spec's defaults (status 1, active, level 1, type 7). */
export function addErt({ caseId, merchantId, userId, content }: AddErtInput) {
  return api.post<ErtResult>(`ert/case/${caseId}/erts`, {
    ...ERT_DEFAULTS,
    user_id: userId,
    merchant_id: merchantId,
    content,
  });
}

export function useAddErt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addErt,
    onSuccess: (_r, input) => qc.invalidateQueries({ queryKey: getErtsQueryOptions(input.caseId).queryKey }),
  });
}
