import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryRoots } from '../../../lib/query-keys';
import { invalidateAlertWrite } from './alert-write-effects';

/** Queries as the app keys them: the alert screens', the reports that count alerts, and others. */
const KEYS = {
  history: [...queryRoots.alerts, 'history', 7, null],
  serviceLevel: [...queryRoots.alerts, 'service-level', null],
  alertsReport: [...queryRoots.reports, 'alerts', { date_range: '2026-11-01|2026-11-29' }],
  kpi: [...queryRoots.reports, 'kpi', {}],
  caseList: [...queryRoots.cases, 'list', {}],
  dashboard: [...queryRoots.dashboard, 'by-status', undefined, '2026-11-01|2026-11-29'],
} as const;

describe('alert writes', () => {
  it('mark every alert query and every report stale, and leave the cases and the dashboard be', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    for (const key of Object.values(KEYS)) queryClient.setQueryData(key, { data: [] });
    await invalidateAlertWrite(queryClient);
    const stale = Object.fromEntries(
      Object.entries(KEYS).map(([name, key]) => [name, queryClient.getQueryState(key)!.isInvalidated]),
    );
    expect(stale).toEqual({
      history: true,
      serviceLevel: true,
      alertsReport: true,
      kpi: true,
      caseList: false,
      dashboard: false,
    });
  });
});
