import type { DescriptorMappingResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export interface MapDescriptorInput {
  merchantId: number;
  descriptor: string;
  midId: number;
  userId?: number;
}

/** POST /cm/svc/alerts/descriptors/mapping?merchant_id: client_id, mid_id, descriptor, user_id (Select MID). */
export function mapDescriptor(input: MapDescriptorInput) {
  return api.post<DescriptorMappingResult>(
    'cm/svc/alerts/descriptors/mapping',
    { client_id: input.merchantId, mid_id: input.midId, descriptor: input.descriptor, user_id: input.userId },
    { params: { merchant_id: input.merchantId } },
  );
}

export function useMapDescriptor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: mapDescriptor,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryRoots.alerts }),
  });
}
