import type { CaseMarkResult, CaseMarkType } from '@portal/contracts';
import { api } from './api-client';

/**
 * The pending case patch (spec 1 §4.2, spec 2 §4): the cases the user has open
 * are marked on the server, and remembered in session storage so that the
 * release is sent when the case view closes and, at the latest, at sign-out.
 */
const KEY = 'portal.case-patch';

export interface MarkInput {
  ids: number[];
  /** upload: 16 marks, 1 releases; other types: 1 marks, 2 releases. */
  status: 1 | 2 | 16;
  type: CaseMarkType;
}

/** The spec's 'case patch': PATCH /cm/cases/patch {ids joined by commas, status, type}. */
export function markCases({ ids, status, type }: MarkInput): Promise<CaseMarkResult> {
  return api.patch<CaseMarkResult>('cm/cases/patch', { ids: ids.join(','), status, type });
}

interface Pending {
  ids: number[];
  type: CaseMarkType;
}

export function readPendingCasePatch(): Pending | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Pending) : null;
  } catch {
    return null;
  }
}

export function setPendingCasePatch(pending: Pending): void {
  sessionStorage.setItem(KEY, JSON.stringify(pending));
}

export function clearPendingCasePatch(): void {
  sessionStorage.removeItem(KEY);
}

/** Forgets the pending patch without a call (the server already cleared the mark, e.g. after approval). */
export function forgetCasePatch(caseId: number): void {
  if (readPendingCasePatch()?.ids.includes(caseId)) clearPendingCasePatch();
}

/** Sends the release of the pending patch, if any (1 for upload, else 2), and forgets it. */
export async function releasePendingCasePatch(): Promise<void> {
  const pending = readPendingCasePatch();
  clearPendingCasePatch();
  if (!pending?.ids.length) return;
  try {
    await markCases({ ids: pending.ids, status: pending.type === 'upload' ? 1 : 2, type: pending.type });
  } catch {
    // A release that fails leaves a mark that expires on the server by itself.
  }
}
