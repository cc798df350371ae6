import { createHash } from 'node:crypto';
import type { Queryable } from '@portal/core';

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

/** How long a preview's PDF is kept after it was last previewed: the viewer needs it only meanwhile. */
export const PREVIEW_RETENTION_SECONDS = 24 * 3600;

/**
 * Notes a stored (or previewed again) preview for the housekeeping purge, before the object is
 * written: a crash between the two leaves a row to purge, never an object nobody knows of.
 */
export function recordPreview(db: Queryable, tenant: string, key: string) {
  return db.query(
    `insert into docs.packet_previews (tenant_id, s3_key) values ($1, $2)
     on conflict (tenant_id, s3_key) do update set stored_at = now()`,
    [tenant, key],
  );
}
