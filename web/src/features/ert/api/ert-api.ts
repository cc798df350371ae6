import type { ErtBulkAnswer, ErtListQuery, ErtResolveAnswer, ErtResult, ErtRowList } from '@portal/contracts';
import { api } from '../../../lib/api-client';
import { downloadCsv, uploadCsv } from '../../../lib/csv-upload';

/** ERT calls (spec 3 §7): list, export, add, resolve one, bulk resolve, bulk upload. */
export const listErts = (q: ErtListQuery) => api.get<ErtRowList>('ert/erts', { ...q });

export const exportErts = (search: string) => downloadCsv('ert/erts.csv', { search: search || undefined });

export const addErt = (caseId: number, content: string) =>
  api.post<ErtResult>(`ert/case/${caseId}/erts`, { content });

export const resolveErt = (id: number) => api.post<ErtResolveAnswer>(`ert/erts/${id}/resolve`, {});

export async function bulkResolve(file: File) {
  const key = await uploadCsv('ert/erts/bulk/resolve/upload', file);
  return api.post<ErtBulkAnswer>('ert/erts/bulk/resolve', {
    s3_key: key,
    filename: file.name.slice(0, 255),
  });
}

export async function bulkCreate(file: File) {
  const key = await uploadCsv('ert/erts/upload/link', file);
  return api.post<ErtBulkAnswer>('ert/erts/upload', { s3_key: key, filename: file.name.slice(0, 255) });
}

export const downloadErtTemplate = (kind: 'create' | 'resolve') => downloadCsv(`ert/erts/template/${kind}`);
