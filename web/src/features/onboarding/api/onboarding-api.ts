import type {
  OnboardingCreated,
  OnboardingDiscarded,
  OnboardingFileList,
  OnboardingRecords,
  OnboardingRecordsPatch,
  OnboardingRecordsPatched,
  OnboardingStatusAnswer,
  OnboardingType,
} from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';
import { useLiveInvalidate, useLivePollInterval } from '../../../lib/live-events';
import { queryRoots } from '../../../lib/query-keys';

/** The background job that finalizes a file (services/case onboarding/finalize.ts): its live messages. */
const FINALIZE_JOB = 'case.onboarding-finalize';

/** Onboarding calls (spec 3 §7): upload, history, records, record edits, finalize, templates. */
export async function uploadOnboarding(input: { file: File; type: OnboardingType; merchantId: number }) {
  const key = await uploadCsv('cm/onboarding/upload', input.file);
  return api.post<OnboardingCreated>('cm/onboarding', {
    s3_key: key,
    type: input.type,
    merchant_id: input.merchantId,
    filename: input.file.name.slice(0, 255),
  });
}

/** The upload history of every date range: an upload or a discard changes it. */
export const onboardingFilesKey = [...queryRoots.onboarding, 'files'] as const;

export function getOnboardingFilesQueryOptions(dateRange: string) {
  return queryOptions({
    queryKey: [...onboardingFilesKey, dateRange] as const,
    queryFn: () => api.get<OnboardingFileList>('cm/onboarding/files', { date_range: dateRange }),
  });
}

export function useOnboardingFiles(dateRange: string) {
  return useQuery(getOnboardingFilesQueryOptions(dateRange));
}

export const RECORD_PAGE = 999;

/** Every page of one file's records: its job's messages and record edits change them. */
const onboardingRecordsKey = (id: number) => [...queryRoots.onboarding, 'records', id] as const;

export function getOnboardingRecordsQueryOptions(id: number, start: number) {
  return queryOptions({
    queryKey: [...onboardingRecordsKey(id), start] as const,
    queryFn: () => api.get<OnboardingRecords>(`cm/onboarding/${id}/records`, { start, limit: RECORD_PAGE }),
  });
}

/** A finalizing file (status 2) is refetched on its job's live messages, polled only while the stream is down. */
export function useOnboardingRecords(id: number, start: number) {
  useLiveInvalidate({ kind: 'job', job_kind: FINALIZE_JOB }, onboardingRecordsKey(id));
  const poll = useLivePollInterval(1500);
  return useQuery({
    ...getOnboardingRecordsQueryOptions(id, start),
    refetchInterval: (q) => (q.state.data?.status_id === 2 ? poll : false),
  });
}

export function usePatchRecords(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (records: OnboardingRecordsPatch['records']) =>
      api.patch<OnboardingRecordsPatched>(`cm/onboarding/${id}/records`, { records }),
    onSuccess: () => qc.invalidateQueries({ queryKey: onboardingRecordsKey(id) }),
  });
}

export function useFinalize(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.patch<OnboardingStatusAnswer>(`cm/onboarding/${id}`, { status_id: 3 }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryRoots.onboarding }),
  });
}

/** DELETE /cm/onboarding/{id}: discards an unfinalized upload and its rows (issue 29). */
export function useDiscardOnboarding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<OnboardingDiscarded>(`cm/onboarding/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: onboardingFilesKey }),
  });
}

export const downloadTemplate = (type: OnboardingType) => downloadCsv(`cm/onboarding/template/${type}`);
