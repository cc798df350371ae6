import {
  CASE_STATUS,
  EVIDENCE_KINDS,
  type RepresentmentDocument,
  type RepresentmentVersion,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import type { VersionPageOp } from '../preview/page-plan';

/** Uploaded representment versions and their documents (migrations/003). */

export interface NewDocument {
  orderNum: number;
  kind: 'file' | 'template';
  templateId: number | null;
  s3Key: string;
  filename: string;
  contentType: string;
  size: number;
  pages: number;
  sha256: string;
}

export interface NewVersion {
  tenant: string;
  caseId: number;
  merchantId: number | null;
  origin: number;
  qcReview: boolean;
  isReupload: boolean;
  comment: string | null;
  uploadedBy: string | null;
  uploadedById: number | null;
  documents: NewDocument[];
  /** Issue 34: the documents' page operations, each naming its document's order_num. */
  pageOps?: VersionPageOp[];
  acceptedWarnings?: { note: string; sha256: string; warnings: string[] } | null;
}

/** Adds the next version of the case's representment with its documents; answers its id and number. */
export async function insertVersion(tx: Queryable, v: NewVersion): Promise<{ id: number; version: number }> {
  // Serialise uploads of one case: the version number is the next one.
  await tx.query(`select pg_advisory_xact_lock(hashtext($1), $2::int)`, [
    `docs.rv:${v.tenant}`,
    v.caseId % 2147483647,
  ]);
  const { rows } = await tx.query<{ id: number; version: number }>(
    `insert into docs.representment_versions (tenant_id, case_id, merchant_id, version, origin, qc_review, is_reupload,
       comment, uploaded_by, uploaded_by_id, page_ops, accepted_warnings)
     select $1, $2, $3, coalesce(max(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb
       from docs.representment_versions where tenant_id = $1 and case_id = $2
     returning id, version`,
    [
      v.tenant,
      v.caseId,
      v.merchantId,
      v.origin,
      v.qcReview,
      v.isReupload,
      v.comment,
      v.uploadedBy,
      v.uploadedById,
      JSON.stringify(v.pageOps ?? []),
      v.acceptedWarnings ? JSON.stringify(v.acceptedWarnings) : null,
    ],
  );
  const id = Number(rows[0]!.id);
  for (const d of v.documents) {
    await tx.query(
      `insert into docs.representment_documents (version_id, tenant_id, order_num, kind, template_id, s3_key, filename,
         content_type, size, pages, sha256, uploaded_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        v.tenant,
        d.orderNum,
        d.kind,
        d.templateId,
        d.s3Key,
        d.filename,
        d.contentType,
        d.size,
        d.pages,
        d.sha256,
        v.uploadedBy,
      ],
    );
  }
  return { id, version: Number(rows[0]!.version) };
}

export interface VersionRow {
  id: number;
  tenant_id: string;
  case_id: number;
  version: number;
  state: 'compiling' | 'compiled' | 'failed';
  qc_review: boolean;
  is_reupload: boolean;
  comment: string | null;
  uploaded_by: string | null;
  uploaded_by_id: number | null;
  uploaded_at: string;
  compiled_key: string | null;
  compiled_size: number | null;
  compiled_pages: number | null;
  compiled_sha256: string | null;
  submission_id: string | null;
  page_ops: VersionPageOp[];
}

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const VERSION_COLUMNS = `id, tenant_id, case_id, version, state, qc_review, is_reupload, comment, uploaded_by, uploaded_by_id,
  ${ISO('uploaded_at')} as uploaded_at, compiled_key, compiled_size, compiled_pages, compiled_sha256, submission_id, page_ops`;

const toVersion = (r: VersionRow): VersionRow => ({
  ...r,
  id: Number(r.id),
  case_id: Number(r.case_id),
  uploaded_by_id: r.uploaded_by_id === null ? null : Number(r.uploaded_by_id),
});

export async function versionById(db: Queryable, tenant: string, id: number): Promise<VersionRow | null> {
  const { rows } = await db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from docs.representment_versions where tenant_id = $1 and id = $2`,
    [tenant, id],
  );
  return rows[0] ? toVersion(rows[0]) : null;
}

export async function latestVersion(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<VersionRow | null> {
  const { rows } = await db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from docs.representment_versions where tenant_id = $1 and case_id = $2
     order by version desc limit 1`,
    [tenant, caseId],
  );
  return rows[0] ? toVersion(rows[0]) : null;
}

export interface DocumentRow extends RepresentmentDocument {
  version_id: number;
  s3_key: string;
}

export async function documentsOf(db: Queryable, versionIds: number[]): Promise<DocumentRow[]> {
  if (!versionIds.length) return [];
  const { rows } = await db.query<DocumentRow>(
    `select version_id, order_num, kind, template_id, s3_key, filename, content_type, size, pages, sha256, uploaded_by,
       ${ISO('uploaded_at')} as uploaded_at
     from docs.representment_documents where version_id = any($1::bigint[]) order by version_id, order_num`,
    [versionIds],
  );
  return rows.map((r) => ({
    ...r,
    version_id: Number(r.version_id),
    template_id: r.template_id === null ? null : Number(r.template_id),
  }));
}

/** Every version of the case, newest first, with documents (the GET answer). */
export async function versionsOf(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<RepresentmentVersion[]> {
  const { rows } = await db.query<VersionRow>(
    `select ${VERSION_COLUMNS} from docs.representment_versions where tenant_id = $1 and case_id = $2
     order by version desc limit 50`,
    [tenant, caseId],
  );
  const versions = rows.map(toVersion);
  const docs = await documentsOf(
    db,
    versions.map((v) => v.id),
  );
  return versions.map((v) => ({
    version: v.version,
    state: v.state,
    qc_review: v.qc_review,
    is_reupload: v.is_reupload,
    comment: v.comment,
    uploaded_by: v.uploaded_by,
    uploaded_at: v.uploaded_at,
    documents: docs.filter((d) => d.version_id === v.id).map(({ version_id: _v, s3_key: _k, ...d }) => d),
    compiled:
      v.state === 'compiled' && v.compiled_pages !== null && v.compiled_sha256 !== null
        ? { pages: v.compiled_pages, sha256: v.compiled_sha256, size: v.compiled_size ?? 0 }
        : null,
    submission_id: v.submission_id,
  }));
}

/** A template the case's merchant may use (docs.templates, kept by the template library). */
export interface TemplateFile {
  id: number;
  s3_key: string;
  file_name: string;
  content_type: string;
  size: number;
  pages: number;
}

export async function templatesFor(
  db: Queryable,
  tenant: string,
  merchantId: number | null,
  ids: number[],
): Promise<Map<number, TemplateFile>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<TemplateFile>(
    `select id, s3_key, file_name, content_type, size, pages from docs.templates
     where tenant_id = $1 and id = any($2::bigint[]) and deleted_at is null
       and ($3::bigint is null or merchant_id = $3)`,
    [tenant, ids, merchantId],
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), size: Number(r.size) }]));
}

/** Records an issued upload form for a case. */
export async function recordUploadLink(
  db: Queryable,
  r: { tenant: string; key: string; caseId: number; userId: number | null; expiresAt: Date },
) {
  await db.query(
    `insert into docs.representment_upload_links (tenant_id, s3_key, case_id, user_id, expires_at) values ($1, $2, $3, $4, $5)`,
    [r.tenant, r.key, r.caseId, r.userId, r.expiresAt.toISOString()],
  );
}

/**
 * How long after its expiry an upload form's key may still be named by the
 * upload call (a file posted just before the form expired); after that the
 * key is refused and the housekeeping job removes the link and its file.
 */
export const UPLOAD_LINK_GRACE_SECONDS = 3600;

/** The case each key was issued for, whether a version already uses it, and whether it is past its grace. */
export async function issuedKeys(
  db: Queryable,
  tenant: string,
  keys: string[],
): Promise<Map<string, { caseId: number; used: boolean; stale: boolean }>> {
  const { rows } = await db.query<{ s3_key: string; case_id: number; used: boolean; stale: boolean }>(
    `select l.s3_key, l.case_id, exists (select 1 from docs.representment_documents d
        where d.tenant_id = l.tenant_id and d.s3_key = l.s3_key and d.kind = 'file') as used,
        l.expires_at < now() - make_interval(secs => $3) as stale
     from docs.representment_upload_links l where l.tenant_id = $1 and l.s3_key = any($2::text[])`,
    [tenant, keys, UPLOAD_LINK_GRACE_SECONDS],
  );
  return new Map(rows.map((r) => [r.s3_key, { caseId: Number(r.case_id), used: r.used, stale: r.stale }]));
}

/**
 * The case service's status transition (its SQL API cases_api.set_representment_status,
 * migration case/035): in the caller's transaction; null when the case was not
 * in one of `from` (nothing changed).
 */
const STATUS_NAME = new Map<number, string>(Object.entries(CASE_STATUS).map(([name, id]) => [id, name]));

export async function setCaseStatus(
  tx: Queryable,
  s: {
    tenant: string;
    caseId: number;
    from: readonly number[];
    to: number;
    action: string;
    userId: number | null;
    username: string | null;
  },
): Promise<number | null> {
  const { rows } = await tx.query<{ previous: number | null; merchant_id: string }>(
    `select cases_api.set_representment_status($1, $2, $3::int[], $4, $5, $6, $7) as previous,
       (select merchant_id from cases_api.cases where tenant_id = $1 and id = $2) as merchant_id`,
    [s.tenant, s.caseId, [...s.from], s.to, s.action, s.userId, s.username],
  );
  const previous = rows[0]?.previous ?? null;
  if (previous !== null && previous !== s.to) {
    const data = {
      case_id: s.caseId,
      previous_status: STATUS_NAME.get(previous),
      status: STATUS_NAME.get(s.to),
    };
    const event = { type: 'CASE_STATUS_CHANGED' as const, merchant_id: Number(rows[0]!.merchant_id), data };
    await emitEvent(tx, s.tenant, event, s.userId);
  }
  return previous;
}

export async function caseStatus(db: Queryable, tenant: string, caseId: number): Promise<number | null> {
  // What the case service declares of its cases (cases_api); it stays their only writer.
  const { rows } = await db.query<{ status_id: number }>(
    `select status_id from cases_api.cases where tenant_id = $1 and id = $2`,
    [tenant, caseId],
  );
  return rows[0]?.status_id ?? null;
}

/** The user who holds the case open (a live case mark of someone else), or null: the case service's SQL API. */
export async function heldByOther(
  db: Queryable,
  tenant: string,
  caseId: number,
  userId: number | null,
  minutes: number,
): Promise<string | null> {
  const { rows } = await db.query<{ held: string | null }>(
    `select cases_api.case_held_by_other($1, $2, $3, $4) as held`,
    [tenant, caseId, userId, minutes],
  );
  return rows[0]?.held ?? null;
}

/**
 * The document types a submission attaches, for the case service's win odds (issue 33: evidence kinds
 * are features of the model), through its SQL API cases_api.record_case_evidence (migration case/041),
 * in the caller's transaction. Items without a document type (the upload modal's) name none.
 */
export async function recordCaseEvidence(
  tx: Queryable,
  tenant: string,
  caseId: number,
  items: ReadonlyArray<{ upload_doc_type_id?: number }>,
) {
  const kinds = [
    ...new Set(items.flatMap((i) => (i.upload_doc_type_id ? [i.upload_doc_type_id] : []))),
  ].filter((k) => k in EVIDENCE_KINDS);
  if (kinds.length)
    await tx.query(`select cases_api.record_case_evidence($1, $2, $3::int[])`, [tenant, caseId, kinds]);
}
