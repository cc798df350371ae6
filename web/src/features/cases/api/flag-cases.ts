import type { CaseRow, CaseWriteResult } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateCaseWrite } from '../../../lib/case-writes';

export interface FlagInput {
  cases: CaseRow[];
  /** true flags, false unflags. */
  flag: boolean;
  comment?: string;
}

/**
 * Single: POST /cm/cases/{id}/flag {flag, comment} or PATCH /cm/cases/{id}/flag/{flagId} {is_flagged};
 * bulk: PUT /cm/cases/flag {flags[] of case_id, is_flagged, comment}.
 */
export function flagCases({ cases, flag, comment }: FlagInput): Promise<CaseWriteResult> {
  const text = comment?.trim() ? comment.trim() : null;
  if (cases.length === 1) {
    const c = cases[0]!;
    if (flag) return api.post<CaseWriteResult>(`cm/cases/${c.id}/flag`, { flag: true, comment: text });
    if (c.flag)
      return api.patch<CaseWriteResult>(`cm/cases/${c.id}/flag/${c.flag.id}`, { is_flagged: false });
  }
  return api.put<CaseWriteResult>('cm/cases/flag', {
    flags: cases.map((c) => ({ case_id: c.id, is_flagged: flag, comment: flag ? text : null })),
  });
}

export function useFlagCases() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: flagCases,
    onSuccess: () => invalidateCaseWrite(qc),
  });
}
