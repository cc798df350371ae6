import type { OnboardingFileList, OnboardingRecords, OnboardingType } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';

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

export function useOnboardingRecords(id: number, start: number) {
  return useQuery({
    queryKey: ['onboarding', 'records', id, start],
    queryFn: () => api.get<OnboardingRecords>(`cm/onboarding/${id}/records`, { start, limit: RECORD_PAGE }),
    refetchInterval: (q) => (q.state.data?.status_id === 2 ? 1500 : false),
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

export const downloadTemplate = (type: OnboardingType) => downloadCsv(`cm/onboarding/template/${type}`);
