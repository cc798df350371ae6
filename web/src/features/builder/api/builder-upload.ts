import type { BuilderUploadAnswer, BuilderUploadBody, UploadLinkAnswer } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /docs/builder/upload-link (case_id, content_type): the object store's form for one JPG or PDF document. */
export function getBuilderUploadLink(
  caseId: number,
  filename: string,
  contentType: 'image/jpeg' | 'application/pdf',
) {
  return api.get<UploadLinkAnswer>('docs/builder/upload-link', {
    case_id: caseId,
    filename,
    content_type: contentType,
  });
}

/** POST /docs/builder/upload (case_id, files[], templates[]): submits the representment. */
export function submitBuilderUpload(body: BuilderUploadBody) {
  return api.post<BuilderUploadAnswer>('docs/builder/upload', body);
}
