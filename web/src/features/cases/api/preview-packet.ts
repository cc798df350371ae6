import type { PacketPreview, PreviewBody } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** POST /docs/representment/preview: the staged packet compiled as the compile job will, with its checks. */
export function previewPacket(body: PreviewBody, signal?: AbortSignal): Promise<PacketPreview> {
  return api.post<PacketPreview>('docs/representment/preview', body, { signal });
}
