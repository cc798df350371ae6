import type { UpdaterCreated, UpdaterList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';
import { useLiveInvalidate, useLivePollInterval } from '../../../lib/live-events';
import { queryRoots } from '../../../lib/query-keys';

/** The background job of an upload (services/case case-updater/updater-job.ts): its live messages. */
const UPDATER_JOB = 'case.updater';

/** Case updater calls (spec 3 §7): upload link + submit, the list of uploads, the template. */
export async function submitUpdaterFile(file: File) {
  const key = await uploadCsv('cm/cases/updater/upload', file);
  return api.post<UpdaterCreated>('cm/cases/updater', {
    s3_key: key,
    size: file.size,
    filename: file.name.slice(0, 255),
  });
}

export function getUpdaterUploadsQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.caseUpdater, 'list'] as const,
    queryFn: () => api.get<UpdaterList>('cm/cases/updater', { limit: 999 }),
  });
}

export function useUpdaterUploads() {
  const options = getUpdaterUploadsQueryOptions();
  // Uploads in progress follow their job's live messages; they are polled only while the stream is down.
  useLiveInvalidate({ kind: 'job', job_kind: UPDATER_JOB }, options.queryKey);
  const poll = useLivePollInterval(1500);
  return useQuery({
    ...options,
    refetchInterval: (q) =>
      q.state.data?.data.some((u) => u.status_name === 'Queued' || u.status_name === 'Processing')
        ? poll
        : false,
  });
}

export const downloadUpdaterTemplate = () => downloadCsv('cm/cases/updater/template');
