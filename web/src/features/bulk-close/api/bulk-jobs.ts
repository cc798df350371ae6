import { BULK_JOB_NAMES, type BulkJob, type BulkJobList } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useLiveInvalidate, useLivePollInterval } from '../../../lib/live-events';
import { queryRoots } from '../../../lib/query-keys';

export type BulkKind = 'auto_accept' | 'auto_refund';

const BASE: Record<BulkKind, string> = {
  auto_accept: 'cm/cases/process/autoaccept',
  auto_refund: 'cm/svc/alerts/auto-refund',
};

/** The background job kind that runs each bulk kind (its live messages). */
const JOB_KIND: Record<BulkKind, string> = {
  auto_accept: BULK_JOB_NAMES.autoAccept,
  auto_refund: BULK_JOB_NAMES.autoRefund,
};

/** Every list of a kind's jobs (any merchant): a job's live messages and decisions change them. */
const bulkJobsKey = (kind: BulkKind) => [...queryRoots.bulkJobs, kind] as const;

/** The jobs of a kind, sorted by id descending (limit 999). */
export function getBulkJobs(kind: BulkKind, merchantId: number | undefined, signal?: AbortSignal) {
  return api.get<BulkJobList>(BASE[kind], { merchant_id: merchantId, limit: 999 }, signal);
}

export function getBulkJobsQueryOptions(kind: BulkKind, merchantId: number | undefined) {
  return queryOptions({
    queryKey: [...bulkJobsKey(kind), merchantId ?? null] as const,
    queryFn: ({ signal }) => getBulkJobs(kind, merchantId, signal),
  });
}

/**
 * Fresh on every open; refetched when the job's live messages arrive (issue 21), and polled while a
 * job is scheduled or running only while the live stream is down, so the panel sees it end.
 */
export function useBulkJobs(kind: BulkKind, merchantId: number | undefined) {
  useLiveInvalidate({ kind: 'job', job_kind: JOB_KIND[kind] }, bulkJobsKey(kind));
  const poll = useLivePollInterval(3000);
  return useQuery({
    ...getBulkJobsQueryOptions(kind, merchantId),
    staleTime: 0,
    refetchInterval: (q) =>
      q.state.data?.data.some((j) => j.state === 'confirmed' || j.state === 'running') ? poll : false,
  });
}

/** Submits criteria: the answer is the pending job with its preview count. */
export function submitBulkJob(kind: BulkKind, body: Record<string, number | boolean | undefined>) {
  return api.post<BulkJob>(BASE[kind], body);
}

/** Confirms (1) or cancels (0) a pending job. */
export function decideBulkJob(kind: BulkKind, id: number, confirmed: 0 | 1, userId?: number) {
  return kind === 'auto_accept'
    ? api.post<BulkJob>(BASE[kind], { id, is_confirmed: confirmed, user_id: userId })
    : api.post<BulkJob>(`${BASE[kind]}/${id}/confirm`, { is_confirmed: confirmed, user_id: userId });
}

export function useSubmitBulkJob(kind: BulkKind) {
  return useMutation({
    mutationFn: (body: Record<string, number | boolean | undefined>) => submitBulkJob(kind, body),
  });
}

export function useDecideBulkJob(kind: BulkKind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; confirmed: 0 | 1; userId?: number }) =>
      decideBulkJob(kind, v.id, v.confirmed, v.userId),
    onSuccess: () => qc.invalidateQueries({ queryKey: bulkJobsKey(kind) }),
  });
}
