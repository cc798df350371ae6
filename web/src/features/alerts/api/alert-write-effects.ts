import type { QueryClient } from '@tanstack/react-query';
import { queryRoots } from '../../../lib/query-keys';

/**
 * What an alert write (an outcome, a completion, a descriptor's MID) makes stale, in one place: every
 * alert query (the grid's history, service level, descriptors) and the reports that count alerts (the
 * alerts report, KPI, month to date), which the query cache would otherwise show unchanged for 30 s.
 */
export function invalidateAlertWrite(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryRoots.alerts }),
    queryClient.invalidateQueries({ queryKey: queryRoots.reports }),
  ]).then(() => undefined);
}
