import type { CaseMarkType } from '@portal/contracts';
import { useEffect, useState } from 'react';
import {
  clearPendingCasePatch,
  markCases,
  readPendingCasePatch,
  releasePendingCasePatch,
  setPendingCasePatch,
} from './case-patch';

export type MarkState = { status: 'ok' } | { status: 'failed'; message: string };

/**
 * Marks the case while its view is open (1 with the type; 16 for upload) and
 * releases it when the view closes or another case opens. A refused mark
 * (another user has the case) is returned so the view can block its actions.
 */
export function useCaseViewPatch(
  caseId: number | null,
  type: CaseMarkType,
  options: { enabled: boolean },
): MarkState {
  const [failure, setFailure] = useState<{ caseId: number; message: string } | null>(null);
  const { enabled } = options;
  useEffect(() => {
    if (caseId == null || !enabled) return;
    let active = true;
    setPendingCasePatch({ ids: [caseId], type });
    markCases({ ids: [caseId], status: type === 'upload' ? 16 : 1, type }).catch((e: unknown) => {
      if (!active) return;
      clearPendingCasePatch();
      setFailure({ caseId, message: e instanceof Error ? e.message : String(e) });
    });
    return () => {
      active = false;
      // Only release the patch this view set (an approval may have cleared it already).
      const pending = readPendingCasePatch();
      if (pending?.ids.length === 1 && pending.ids[0] === caseId) void releasePendingCasePatch();
    };
  }, [caseId, type, enabled]);
  return failure && failure.caseId === caseId
    ? { status: 'failed', message: failure.message }
    : { status: 'ok' };
}
