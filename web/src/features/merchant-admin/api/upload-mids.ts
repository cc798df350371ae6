import { IMPERSONATE_HEADER } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, saveBlob } from '../../../lib/api-client';
import { getImpersonation } from '../../../lib/impersonation';
import { getAccessToken } from '../../../lib/token-store';
import { queryRoots } from '../../../lib/query-keys';

export const UPLOAD_TEXT = {
  ok: 'MIDs successfully uploaded.',
  failed: 'An error occurred while uploading MIDs.',
  template: 'An unknown error has occurred.',
  single: 'Only a single CSV file is allowed.',
} as const;

/** POST /cm/mids/upload (multipart: merchant_id, mids); the JSON client sends no forms. */
async function uploadMids({ merchantId, file }: { merchantId: number; file: File }) {
  const form = new FormData();
  form.append('merchant_id', String(merchantId));
  form.append('mids', file);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getAccessToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const imp = getImpersonation();
  if (imp) headers[IMPERSONATE_HEADER] = imp.id;
  const res = await fetch('/api/cm/mids/upload', {
    method: 'POST',
    body: form,
    headers,
    credentials: 'same-origin',
  });
  const body = (await res.json().catch(() => null)) as {
    message?: string;
    data?: { errors?: { row: number; field: string; message: string }[] };
  } | null;
  if (!res.ok) {
    const rows = body?.data?.errors?.map((e) => `Row ${e.row}: ${e.field}: ${e.message}`) ?? [];
    throw Object.assign(new Error(body?.message || UPLOAD_TEXT.failed), { rows });
  }
  return body;
}

export function useUploadMids() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uploadMids,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryRoots.merchantTree }),
  });
}

/** GET /cm/templates/mids.csv, saved as a file. */
export async function downloadMidTemplate(): Promise<void> {
  const file = await api.download('cm/templates/mids.csv', {});
  if (!file.blob) throw new Error(UPLOAD_TEXT.template);
  saveBlob(file.blob, file.filename);
}
