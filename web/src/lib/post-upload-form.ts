import type { UploadLinkAnswer } from '@portal/contracts';
import { ApiError } from './errors';

/**
 * Posts a file to an upload form as S3 wants it (the form's fields, then
 * `file` last, multipart) with progress events for large files. The form's
 * signature is the authority, so no bearer token goes with it. Resolves once
 * the store answers that the file is stored.
 */
export function postUploadForm(
  link: UploadLinkAnswer,
  file: Blob,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(link.fields)) form.append(k, v);
  form.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', link.url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve();
        return;
      }
      let message = 'An error occurred. Please try again later.';
      try {
        message = (JSON.parse(xhr.responseText) as { message?: string }).message ?? message;
      } catch {
        // S3 answers XML: keep the generic text.
      }
      reject(new ApiError(message, xhr.status));
    };
    xhr.onerror = () => reject(new ApiError('An error occurred. Please try again later.', 0));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
