import type { UploadLinkAnswer } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /docs/representment/upload-link (case_id, filename, content_type): the object store's upload form. */
export function getUploadLink(
  caseId: number,
  file: { name: string; type: 'application/pdf' | 'image/jpeg' },
): Promise<UploadLinkAnswer> {
  return api.get<UploadLinkAnswer>('docs/representment/upload-link', {
    case_id: caseId,
    filename: file.name,
    content_type: file.type,
  });
}
