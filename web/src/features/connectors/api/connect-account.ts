import type { ConnectionCreateBody, ConnectionView } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { connectionsKey } from './get-connections';

/** POST /cm/merchants/{id}/connections: the key is checked by Stripe before anything is stored. */
export function useConnectAccount(merchantId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectionCreateBody) =>
      api.post<ConnectionView>(`cm/merchants/${merchantId}/connections`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: connectionsKey(merchantId) }),
  });
}
