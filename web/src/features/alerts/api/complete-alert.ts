import type { AlertWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAlertWrite } from './alert-write-effects';

/** POST /cm/svc/alerts/complete: alert_id. */
export function completeAlert(body: { alert_id: number; user_id?: number }) {
  return api.post<AlertWriteResult>('cm/svc/alerts/complete', body);
}

export function useCompleteAlert() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: completeAlert,
    onSuccess: () => invalidateAlertWrite(qc),
  });
}
