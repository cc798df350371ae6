import { GENERIC_ERROR } from '../../../lib/errors';
import type { Template, TemplateCreateBody } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { templatesListKey } from './get-templates';
import type { CheckedFile } from '../components/check-template-file';
import { getTemplateUploadLink } from './get-template-upload-link';

export interface NewTemplateInput {
  merchantId: number;
  name: string;
  documentTypeId: number | null;
  midIds: number[];
  file: CheckedFile;
}

/** Posts the file to the store's form as S3 wants it: the fields, then `file` last. No bearer token. */
async function postToStore(link: { url: string; fields: Record<string, string> }, file: File) {
  const form = new FormData();
  for (const [k, v] of Object.entries(link.fields)) form.append(k, v);
  form.append('file', file);
  const res = await fetch(link.url, { method: 'POST', body: form, credentials: 'omit' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message || GENERIC_ERROR);
  }
}

/** Upload link, the store's form, then POST /docs/templates naming the stored key (the server counts the pages). */
export async function createTemplate(input: NewTemplateInput): Promise<Template> {
  const { file } = input;
  const link = await getTemplateUploadLink(input.merchantId, {
    name: file.file.name,
    type: file.contentType,
  });
  await postToStore(link, file.file);
  const body: TemplateCreateBody = {
    merchant_id: input.merchantId,
    s3_key: link.fields.key!,
    name: input.name,
    file_name: file.file.name,
    content_type: file.contentType,
    size: file.file.size,
    template_type: 1,
    pages: file.pages,
    document_type_id: input.documentTypeId,
    mid_ids: input.midIds,
  };
  return api.post<Template>('docs/templates', body);
}

export function useCreateTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => qc.invalidateQueries({ queryKey: templatesListKey }),
  });
}
