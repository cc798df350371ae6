import { TEMPLATE_DOCUMENT_TYPES, type Template } from '@portal/contracts';
import type { Queryable } from '@portal/core';

interface TemplateDbRow {
  id: string | number;
  merchant_id: string | number;
  name: string;
  file_name: string;
  s3_key: string;
  content_type: string;
  size: number;
  pages: number;
  template_type: number;
  document_type_id: number | null;
  mid_ids: Array<string | number>;
  created_by: string | null;
  created_at: string;
}

const COLUMNS = `id, merchant_id, name, file_name, s3_key, content_type, size, pages, template_type, document_type_id,
  mid_ids, created_by, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at`;

const DOC_TYPE_NAMES = new Map<number, string>(TEMPLATE_DOCUMENT_TYPES.map((t) => [t.id, t.name]));

function toTemplate(r: TemplateDbRow): Template {
  return {
    id: Number(r.id),
    merchant_id: Number(r.merchant_id),
    name: r.name,
    template_type: r.template_type,
    document_type_id: r.document_type_id,
    document_type: r.document_type_id === null ? null : (DOC_TYPE_NAMES.get(r.document_type_id) ?? null),
    mid_ids: (r.mid_ids ?? []).map(Number),
    created_by: r.created_by,
    created_at: r.created_at,
    file: { filename: r.file_name, content_type: r.content_type, size: Number(r.size), pages: r.pages },
  };
}

/** A merchant's live templates, newest first; `limit` 0 counts only. */
export async function listTemplates(
  db: Queryable,
  tenant: string,
  merchantId: number,
  start: number,
  limit: number,
): Promise<{ data: Template[]; total: number }> {
  const where = `tenant_id = $1 and merchant_id = $2 and deleted_at is null`;
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve({ rows: [] as TemplateDbRow[] })
      : db.query<TemplateDbRow>(
          `select ${COLUMNS} from docs.templates where ${where} order by created_at desc, id desc limit $3 offset $4`,
          [tenant, merchantId, limit, start],
        ),
    db.query<{ n: number }>(`select count(*)::int as n from docs.templates where ${where}`, [
      tenant,
      merchantId,
    ]),
  ]);
  return { data: rows.rows.map(toTemplate), total: Number(count.rows[0]?.n ?? 0) };
}

interface NewTemplate {
  tenant: string;
  merchantId: number;
  name: string;
  fileName: string;
  s3Key: string;
  contentType: string;
  size: number;
  pages: number;
  documentTypeId: number | null;
  midIds: number[];
  createdBy: string | null;
  createdAt?: Date;
}

export async function insertTemplate(tx: Queryable, t: NewTemplate): Promise<Template> {
  const { rows } = await tx.query<TemplateDbRow>(
    `insert into docs.templates (tenant_id, merchant_id, name, file_name, s3_key, content_type, size, pages,
       template_type, document_type_id, mid_ids, created_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10::bigint[], $11, coalesce($12::timestamptz, now()))
     returning ${COLUMNS}`,
    [
      t.tenant,
      t.merchantId,
      t.name,
      t.fileName,
      t.s3Key,
      t.contentType,
      t.size,
      t.pages,
      t.documentTypeId,
      t.midIds,
      t.createdBy,
      t.createdAt?.toISOString() ?? null,
    ],
  );
  return toTemplate(rows[0]!);
}

/** Whether a stored key already belongs to a template (one key, one template). */
export async function templateKeyUsed(db: Queryable, tenant: string, key: string): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from docs.templates where tenant_id = $1 and s3_key = $2 limit 1`,
    [tenant, key],
  );
  return rows.length > 0;
}

/** Soft delete; false when there is no live template of that merchant with that id. */
export async function deleteTemplate(
  db: Queryable,
  tenant: string,
  merchantId: number,
  templateId: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update docs.templates set deleted_at = now()
     where tenant_id = $1 and merchant_id = $2 and id = $3 and deleted_at is null`,
    [tenant, merchantId, templateId],
  );
  return (rowCount ?? 0) > 0;
}
