import type { CaseMarkResult, CaseMarkType } from '@portal/contracts';
import { apiPatch } from './request';

export interface MarkInput {
  ids: number[];
  /** upload: 16 marks, 1 releases; other types: 1 marks, 2 releases (spec 2 §4). */
  status: 1 | 2 | 16;
  type: CaseMarkType;
}

/** The spec's 'case patch': PATCH /cm/cases/patch {ids joined by commas, status, type}. */
export function markCases({ ids, status, type }: MarkInput): Promise<CaseMarkResult> {
  return apiPatch<CaseMarkResult>('cm/cases/patch', { ids: ids.join(','), status, type });
}
