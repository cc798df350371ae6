import type { AlertOutcomeBody, AlertWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAlertWrite } from './alert-write-effects';

/** POST /cm/svc/alerts/outcome: alert_id, user_id, outcome_id, and refund_id, order_id, customer_name or case_id. */
export function markAlertOutcome(body: AlertOutcomeBody) {
  return api.post<AlertWriteResult>('cm/svc/alerts/outcome', body);
}

export function useMarkAlertOutcome() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: markAlertOutcome,
    onSuccess: () => invalidateAlertWrite(qc),
  });
}
