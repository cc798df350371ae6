import type { BuilderPreviewBody, PacketPreview } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** POST /docs/builder/preview: the builder's packet (case summary first) compiled and checked (issue 34). */
export function previewBuilderPacket(body: BuilderPreviewBody): Promise<PacketPreview> {
  return api.post<PacketPreview>('docs/builder/preview', body);
}
