import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { templatesListKey } from './get-templates';

/** DELETE /docs/merchant/{id}/template/{templateId} (soft delete). */
export function deleteTemplate({ merchantId, templateId }: { merchantId: number; templateId: number }) {
  return api.delete<null>(`docs/merchant/${merchantId}/template/${templateId}`);
}

export function useDeleteTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => qc.invalidateQueries({ queryKey: templatesListKey }),
  });
}
