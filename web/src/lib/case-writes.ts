import type { WebhookEventType } from '@portal/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLiveRefresh } from './live-events';
import { caseFigureRoots, queryRoots } from './query-keys';

/**
 * What a case write makes stale, in one place. The query cache keeps data fresh for 30 s
 * (app/provider.tsx), so a screen that read a report before a verdict, status, flag, assignment or
 * upload changed would show the old figures on its next visit without this: every case write of the
 * app ends with invalidateCaseWrite (the figures on screen refetch at once), and case events of the
 * live stream (another user's change, a background job's) only mark them stale.
 */

/**
 * Every figure computed from cases (reports, dashboard, recovered revenue) marked stale. `refetch`
 * 'active' refetches the ones on screen; 'none' leaves that to the screen's next mount or focus.
 */
export function invalidateCaseFigures(
  queryClient: QueryClient,
  refetch: 'active' | 'none' = 'active',
): Promise<void> {
  return Promise.all(
    caseFigureRoots.map((queryKey) => queryClient.invalidateQueries({ queryKey, refetchType: refetch })),
  ).then(() => undefined);
}

/** After a case write: the case queries (lists, counts, the case's own views) and every figure computed from cases. */
export function invalidateCaseWrite(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryRoots.cases }),
    invalidateCaseFigures(queryClient),
  ]).then(() => undefined);
}

/** The live events that change a figure computed from cases. */
export const CASE_FIGURE_EVENTS: readonly WebhookEventType[] = [
  'CASE_CREATED',
  'CASE_STATUS_CHANGED',
  'CASE_VERDICT_CHANGED',
];

/** A bulk change or a job sends hundreds of events: the figures refetch at most once per this. */
export const CASE_FIGURE_COALESCE_MS = 2000;

/**
 * Mounted once (app/provider.tsx): a case event of the live stream (or a resync after a drop) marks
 * the figures stale, so a report or dashboard visited later does not show cached figures. It does not
 * refetch the ones on screen: in a busy tenant every open dashboard would re-read its seven calls every
 * couple of seconds. The case lists and counts follow their own events.
 */
export function LiveCaseFigures(): null {
  const queryClient = useQueryClient();
  useLiveRefresh(
    { kind: 'event', type: CASE_FIGURE_EVENTS },
    () => void invalidateCaseFigures(queryClient, 'none'),
    CASE_FIGURE_COALESCE_MS,
  );
  return null;
}
