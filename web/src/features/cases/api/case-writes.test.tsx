import { CASE_STATUS, type CaseRow } from '@portal/contracts';
import { QueryClient, QueryClientProvider, type UseMutationResult } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRoots } from '../../../lib/query-keys';
import { useAddCaseComment } from './add-case-comment';
import { useAssignCases } from './assign-cases';
import { useChangeCaseStatus } from './change-case-status';
import { useEditCases } from './edit-cases';
import { useFlagCases } from './flag-cases';
import { useUploadRepresentment } from './upload-representment';

/** The report and dashboard queries a case write changes (win rate, recovered tile). */
const winRate = [...queryRoots.reports, 'win-rate', { group_by: 'reason_code' }];
const recoveredTile = [...queryRoots.dashboard, 'recovered', undefined];

beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ message: 'Success', data: [] })),
  ),
);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const row = { id: 7, flag: null } as unknown as CaseRow;

/** Each case write of the case screens: a hook that answers the write to run. */
const WRITES: [string, () => () => Promise<unknown>][] = [
  ['bulk verdict', () => run(useEditCases(), { ids: [7, 8], verdictId: 4 })],
  ['edit', () => run(useEditCases(), { id: 7, body: { verdict_id: 4 } })],
  [
    'Do Not Represent',
    () => run(useChangeCaseStatus(), { ids: [7, 8], statusId: CASE_STATUS.DoNotRepresent }),
  ],
  ['flag', () => run(useFlagCases(), { cases: [row], flag: true })],
  ['assign', () => run(useAssignCases(), { ids: [7], userId: 3 })],
  [
    'upload',
    () =>
      run(useUploadRepresentment(), {
        case_id: 7,
        origin: 2,
        files: [],
        templates: [],
        qc_review: false,
        is_reupload: false,
      }),
  ],
  ['comment', () => run(useAddCaseComment(), { id: 7, comment: 'x' })],
];

function run<I>(mutation: UseMutationResult<unknown, Error, I>, input: I) {
  return () => mutation.mutateAsync(input);
}

describe('case writes refresh the reports and the dashboard', () => {
  it.each(WRITES)('%s', async (_name, useWrite) => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    queryClient.setQueryData(winRate, { data: [] });
    queryClient.setQueryData(recoveredTile, { amount: 0 });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useWrite(), { wrapper });
    await act(() => result.current());
    expect(queryClient.getQueryState(winRate)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(recoveredTile)?.isInvalidated).toBe(true);
  });
});
