import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /docs/representment/transport {case_id}: send a compiled representment to the card network. */
export function requestTransport(caseId: number): Promise<{ message: string; job_id: string }> {
  return api.post('docs/representment/transport', { case_id: caseId });
}

export function useRequestTransport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestTransport,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['cases'] }),
  });
}
