import type { CaseMarkType } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { markCases } from '../api/mark-cases';

/**
 * The pending case patch (spec 2 §2, §4; spec 1 §4.2): the cases the user has
 * open, kept in session storage so a release is sent when they leave the case
 * view, and at sign-out (releasePendingCasePatch, to be called by sign-out).
 */
const KEY = 'portal.case-patch';

interface Pending {
  ids: number[];
  type: CaseMarkType;
}

function readPending(): Pending | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Pending) : null;
  } catch {
    return null;
  }
}

const releaseStatus = (type: CaseMarkType) => (type === 'upload' ? 1 : 2);

/** Sends the release of the pending patch, if any (1 for upload, else 2), and forgets it. */
export async function releasePendingCasePatch(): Promise<void> {
  const pending = readPending();
  sessionStorage.removeItem(KEY);
  if (!pending?.ids.length) return;
  try {
    await markCases({ ids: pending.ids, status: releaseStatus(pending.type), type: pending.type });
  } catch {
    // A release that fails leaves a mark that expires on the server by itself.
  }
}

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
    sessionStorage.setItem(KEY, JSON.stringify({ ids: [caseId], type } satisfies Pending));
    markCases({ ids: [caseId], status: type === 'upload' ? 16 : 1, type }).catch((e: unknown) => {
      if (!active) return;
      sessionStorage.removeItem(KEY);
      setFailure({ caseId, message: e instanceof Error ? e.message : String(e) });
    });
    return () => {
      active = false;
      // Only release the patch this view set (an approval may have cleared it already).
      const pending = readPending();
      if (pending?.ids.length === 1 && pending.ids[0] === caseId) void releasePendingCasePatch();
    };
  }, [caseId, type, enabled]);
  return failure && failure.caseId === caseId
    ? { status: 'failed', message: failure.message }
    : { status: 'ok' };
}

/** Forgets the pending patch without a call (the server cleared the mark, e.g. after approval). */
export function forgetCasePatch(caseId: number): void {
  const pending = readPending();
  if (pending?.ids.includes(caseId)) sessionStorage.removeItem(KEY);
}
