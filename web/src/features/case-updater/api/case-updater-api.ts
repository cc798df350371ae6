import type { UpdaterUpload } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';

/** Case updater calls (spec 3 §7): upload link + submit, the list of uploads, the template. */
export async function submitUpdaterFile(file: File) {
  const key = await uploadCsv('cm/cases/updater/upload', file);
  return api.post<{ id: number; message: string }>('cm/cases/updater', {
    s3_key: key,
    size: file.size,
    filename: file.name.slice(0, 255),
  });
}

export function useUpdaterUploads() {
  return useQuery({
    queryKey: ['case-updater', 'list'],
    queryFn: () => api.get<{ data: UpdaterUpload[] }>('cm/cases/updater', { limit: 999 }),
    // Uploads in progress are polled until their job is done.
    refetchInterval: (q) =>
      q.state.data?.data.some((u) => u.status_name === 'Queued' || u.status_name === 'Processing')
        ? 1500
        : false,
  });
}

export const downloadUpdaterTemplate = () => downloadCsv('cm/cases/updater/template');
