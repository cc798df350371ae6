import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { connectionsKey } from './get-connections';

/** DELETE /cm/merchants/{id}/connections/{connectionId}: the sealed keys are deleted, the cases stay. */
export function useDisconnectAccount(merchantId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: string) =>
      api.delete<{ message: string }>(`cm/merchants/${merchantId}/connections/${connectionId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: connectionsKey(merchantId) }),
  });
}
