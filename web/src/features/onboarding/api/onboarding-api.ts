import type {
  OnboardingDiscarded,
  OnboardingFileList,
  OnboardingRecords,
  OnboardingType,
} from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';
import { useLiveInvalidate, useLivePollInterval } from '../../../lib/live-events';

/** The background job that finalizes a file (services/case onboarding/finalize.ts): its live messages. */
const FINALIZE_JOB = 'case.onboarding-finalize';

/** Onboarding calls (spec 3 §7): upload, history, records, record edits, finalize, templates. */
export async function uploadOnboarding(input: { file: File; type: OnboardingType; merchantId: number }) {
  const key = await uploadCsv('cm/onboarding/upload', input.file);
  return api.post<{ id: number; message: string }>('cm/onboarding', {
    s3_key: key,
    type: input.type,
    merchant_id: input.merchantId,
    filename: input.file.name.slice(0, 255),
  });
}

export function useOnboardingFiles(dateRange: string) {
  return useQuery({
    queryKey: ['onboarding', 'files', dateRange],
    queryFn: () => api.get<OnboardingFileList>('cm/onboarding/files', { date_range: dateRange }),
  });
}

export const RECORD_PAGE = 999;

/** A finalizing file (status 2) is refetched on its job's live messages, polled only while the stream is down. */
export function useOnboardingRecords(id: number, start: number) {
  useLiveInvalidate({ kind: 'job', job_kind: FINALIZE_JOB }, ['onboarding', 'records', id]);
  const poll = useLivePollInterval(1500);
  return useQuery({
    queryKey: ['onboarding', 'records', id, start],
    queryFn: () => api.get<OnboardingRecords>(`cm/onboarding/${id}/records`, { start, limit: RECORD_PAGE }),
    refetchInterval: (q) => (q.state.data?.status_id === 2 ? poll : false),
  });
}

export interface RecordChange {
  id: number;
  status_id?: 1 | 2;
  cells?: Record<string, string>;
}

export function usePatchRecords(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (records: RecordChange[]) =>
      api.patch<{ message: string; total_failing_validation: number }>(`cm/onboarding/${id}/records`, {
        records,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['onboarding', 'records', id] }),
  });
}

export function useFinalize(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.patch<{ message: string }>(`cm/onboarding/${id}`, { status_id: 3 }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['onboarding'] }),
  });
}

/** DELETE /cm/onboarding/{id}: discards an unfinalized upload and its rows (issue 29). */
export function useDiscardOnboarding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<OnboardingDiscarded>(`cm/onboarding/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['onboarding', 'files'] }),
  });
}

export const downloadTemplate = (type: OnboardingType) => downloadCsv(`cm/onboarding/template/${type}`);
