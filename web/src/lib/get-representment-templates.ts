import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** A template of the merchant's library as the upload modal lists it (spec 2 §3 'Document template'). */
export interface UploadTemplate {
  id: number;
  name: string;
  file: { filename: string; size: number; pages: number | null };
}

interface TemplateAnswer {
  data: Array<{
    id: number;
    name?: string;
    file_name?: string;
    size?: number;
    pages?: number | null;
    file?: UploadTemplate['file'];
  }>;
}

/** GET /docs/templates (merchant_id, start 0, limit 999); an empty list when the call is not there. */
export async function getRepresentmentTemplates(
  merchantId: number,
  signal?: AbortSignal,
): Promise<UploadTemplate[]> {
  try {
    const r = await api.get<TemplateAnswer>(
      'docs/templates',
      { merchant_id: merchantId, start: 0, limit: 999 },
      signal,
    );
    return (r.data ?? []).map((t) => ({
      id: t.id,
      name: t.name ?? t.file?.filename ?? t.file_name ?? `Template ${t.id}`,
      file: t.file ?? { filename: t.file_name ?? '', size: t.size ?? 0, pages: t.pages ?? null },
    }));
  } catch {
    return [];
  }
}

export function useRepresentmentTemplates(merchantId: number | null) {
  return useQuery({
    queryKey: ['cases', 'upload-templates', merchantId] as const,
    queryFn: ({ signal }) => getRepresentmentTemplates(merchantId!, signal),
    enabled: merchantId != null,
    staleTime: 60_000,
  });
}
