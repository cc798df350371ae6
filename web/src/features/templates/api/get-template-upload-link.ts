import type { UploadLinkResponse } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /docs/templates/upload-link: the object store's form for one JPEG or PDF. */
export function getTemplateUploadLink(merchantId: number, file: { name: string; type: string }) {
  return api.get<UploadLinkResponse>('docs/templates/upload-link', {
    merchant_id: merchantId,
    filename: file.name,
    content_type: file.type,
  });
}
