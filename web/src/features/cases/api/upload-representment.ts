import type { RepresentmentUploadAnswer, RepresentmentUploadBody } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** POST /docs/representment: the stored files and templates, in order (spec 2 §7 'Documents'). */
export function uploadRepresentment(body: RepresentmentUploadBody): Promise<RepresentmentUploadAnswer> {
  return api.post<RepresentmentUploadAnswer>('docs/representment', body);
}

export function useUploadRepresentment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uploadRepresentment,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryRoots.cases }),
  });
}
