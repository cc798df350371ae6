import type { RepresentmentUploadAnswer, RepresentmentUploadBody } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

/** POST /docs/representment: the stored files and templates, in order (spec 2 §7 'Documents'). */
export function uploadRepresentment(body: RepresentmentUploadBody): Promise<RepresentmentUploadAnswer> {
  return api.post<RepresentmentUploadAnswer>('docs/representment', body);
}

export function useUploadRepresentment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uploadRepresentment,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
