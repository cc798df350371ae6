import type { UploadLinkAnswer } from '@portal/contracts';
import { api, saveBlob } from './api-client';
import { GENERIC_ERROR } from './errors';

export const SINGLE_CSV = 'Only a single CSV file is allowed.';

/** The one CSV among dropped or chosen files, or the spec's message. */
export function pickSingleCsv(files: FileList | File[] | null): File {
  const list = files ? Array.from(files) : [];
  const file = list[0];
  if (list.length !== 1 || !file || !/\.csv$/i.test(file.name)) throw new Error(SINGLE_CSV);
  return file;
}

/**
 * CSV uploads through the object store (design §10): ask the service for an
 * upload form, post the form's fields and then `file` to it (no bearer
 * token: the form's signature is the authority), answer the stored key.
 */
export async function uploadCsv(linkPath: string, file: File): Promise<string> {
  const link = await api.get<UploadLinkAnswer>(linkPath, { filename: file.name });
  const form = new FormData();
  for (const [k, v] of Object.entries(link.fields)) form.append(k, v);
  form.append('file', new File([file], file.name, { type: 'text/csv' }));
  const res = await fetch(link.url, { method: 'POST', body: form, credentials: 'omit' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message || GENERIC_ERROR);
  }
  return link.fields.key!;
}

/** Downloads a CSV (template or export) and saves it. */
export async function downloadCsv(path: string, params: Record<string, string | number | undefined> = {}) {
  const file = await api.download(path, params);
  if (!file.blob) throw new Error('An unknown error has occurred.');
  saveBlob(file.blob, file.filename);
}
