import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { connectionsKey } from './get-connections';

/** PUT /cm/merchants/{id}/connections/{connectionId}/webhook-secret. */
export function useSetWebhookSecret(merchantId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionId, secret }: { connectionId: string; secret: string }) =>
      api.put<{ message: string }>(`cm/merchants/${merchantId}/connections/${connectionId}/webhook-secret`, {
        webhook_secret: secret,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: connectionsKey(merchantId) }),
  });
}
