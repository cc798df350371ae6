import { createHash } from 'node:crypto';

/**
 * Where a preview's PDF is kept: one key per tenant, case and packet hash,
 * so that previewing the same packet again writes the same object.
 */
export function previewKey(tenant: string, caseId: number, sha256: string): string {
  const h = createHash('sha256').update(`preview:${tenant}:${caseId}:${sha256}`).digest('hex');
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return `${tenant}/previews/${uuid}/preview-${caseId}.pdf`;
}

export const previewPath = (caseId: number, sha256: string) =>
  `/api/docs/representment/preview/${caseId}/${sha256}`;
