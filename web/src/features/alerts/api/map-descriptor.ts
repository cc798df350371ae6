import type { DescriptorMappingResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAlertWrite } from './alert-write-effects';

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
    onSuccess: () => invalidateAlertWrite(qc),
  });
}
