import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CASE_FIGURE_COALESCE_MS,
  LiveCaseFigures,
  invalidateCaseFigures,
  invalidateCaseWrite,
} from './case-writes';
import { liveConnection, type LiveDelivery } from './live-events';
import { queryRoots } from './query-keys';

/** Queries as the app keys them: reports, the dashboard (the recovered tile), the cases, and others. */
const KEYS = {
  winRate: [...queryRoots.reports, 'win-rate', { date_range: '2026-10-29|2026-11-28' }],
  recoveredRevenue: [...queryRoots.reports, 'recovered-revenue', {}],
  recoveredTile: [...queryRoots.dashboard, 'recovered', undefined],
  byStatus: [...queryRoots.dashboard, 'by-status', undefined, '2026-11-01|2026-11-28'],
  caseList: [...queryRoots.cases, 'list', {}],
  users: [...queryRoots.users, 'list'],
} as const;

function cacheWithEveryKey() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
  for (const key of Object.values(KEYS)) queryClient.setQueryData(key, { data: [] });
  return queryClient;
}

const stale = (queryClient: QueryClient) =>
  Object.fromEntries(
    Object.entries(KEYS).map(([name, key]) => [name, queryClient.getQueryState(key)!.isInvalidated]),
  );

/** What the stream hands its subscribers (LiveConnection.deliver, private). */
const deliver = (message: LiveDelivery) =>
  (liveConnection as unknown as { deliver(m: LiveDelivery): void }).deliver(message);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('case writes and the figures computed from cases', () => {
  it('a case write marks the cases, every report and the dashboard stale, nothing else', async () => {
    const queryClient = cacheWithEveryKey();
    await invalidateCaseWrite(queryClient);
    expect(stale(queryClient)).toEqual({
      winRate: true,
      recoveredRevenue: true,
      recoveredTile: true,
      byStatus: true,
      caseList: true,
      users: false,
    });
  });

  it('the figures alone leave the case queries be', async () => {
    const queryClient = cacheWithEveryKey();
    await invalidateCaseFigures(queryClient);
    expect(stale(queryClient)).toMatchObject({ winRate: true, recoveredTile: true, caseList: false });
  });

  describe('live case events', () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));

    it('a verdict or status event (a burst of them) marks the figures stale once, without refetching; other events do not', () => {
      const queryClient = cacheWithEveryKey();
      const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
      render(
        <QueryClientProvider client={queryClient}>
          <LiveCaseFigures />
        </QueryClientProvider>,
      );
      const event = (type: 'CASE_VERDICT_CHANGED' | 'CASE_STATUS_CHANGED' | 'ALERT_CREATED') =>
        deliver({ kind: 'event', type, merchant_id: 1, case_id: 7 } as LiveDelivery);
      act(() => event('ALERT_CREATED'));
      act(() => vi.advanceTimersByTime(CASE_FIGURE_COALESCE_MS));
      expect(invalidate).not.toHaveBeenCalled();

      act(() => {
        for (let i = 0; i < 50; i++) event(i % 2 ? 'CASE_VERDICT_CHANGED' : 'CASE_STATUS_CHANGED');
      });
      act(() => vi.advanceTimersByTime(CASE_FIGURE_COALESCE_MS));
      expect(stale(queryClient)).toMatchObject({ winRate: true, recoveredTile: true, caseList: false });
      // A live event must not refetch what is on screen: every open dashboard of a busy tenant would re-read.
      expect(invalidate.mock.calls.map(([filters]) => filters)).toEqual([
        { queryKey: queryRoots.reports, refetchType: 'none' },
        { queryKey: queryRoots.dashboard, refetchType: 'none' },
      ]);
    });
  });
});
