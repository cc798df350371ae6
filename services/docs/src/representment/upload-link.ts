import { ErrorResponse, type InternalContext } from '@portal/contracts';
import { conflict, type CaseClient, type Db } from '@portal/core';
import { MAX_UPLOAD_BYTES, UPLOAD_LINK_TTL_SECONDS, type ObjectStore } from '@portal/storage';
import { uploadLimits } from './upload-limits';
import { recordUploadLink } from './version-repository';

/** The refusals the upload routes (links and submissions, representment and case builder) answer. */
export const UPLOAD_REFUSALS = {
  400: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};

export interface UploadLinkDeps {
  db: Db;
  cases: Pick<CaseClient, 'caseDetail'>;
  store: ObjectStore;
  tenantConfigDir: string;
}

type FileType = 'application/pdf' | 'image/jpeg';

/** What a route takes an upload link for: the case statuses (else a 409 in its words) and the default type. */
export interface UploadLinkRule {
  statuses: readonly number[];
  notUploadable(status: string): string;
  contentType: FileType;
}

/**
 * An upload form for one file of a case's representment, within the user's size limit, recorded so
 * the upload call accepts only keys issued for that case (and the purge job can clear them).
 */
export async function issueUploadLink(
  deps: UploadLinkDeps,
  ctx: InternalContext,
  q: { case_id: number; filename?: string; content_type?: FileType },
  rule: UploadLinkRule,
) {
  const c = await deps.cases.caseDetail(ctx, q.case_id);
  if (!rule.statuses.includes(c.status_id)) throw conflict(rule.notUploadable(c.status));
  const contentType = q.content_type ?? rule.contentType;
  const limits = uploadLimits(deps.tenantConfigDir, ctx);
  const ttl = UPLOAD_LINK_TTL_SECONDS;
  const link = await deps.store.createUploadLink({
    tenant: ctx.tenant,
    area: 'representments',
    filename: q.filename ?? (contentType === 'image/jpeg' ? 'document.jpg' : 'document.pdf'),
    contentType,
    maxBytes: Math.min(limits.maxBytes, MAX_UPLOAD_BYTES),
    expiresInSeconds: ttl,
  });
  await recordUploadLink(deps.db, {
    tenant: ctx.tenant,
    key: link.fields.key!,
    caseId: c.id,
    userId: ctx.user_id,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  return link;
}
