import type { Queryable } from '@portal/core';

export interface RepresentmentRow {
  id: number;
  case_id: number;
  file_key: string;
  filename: string;
  content_type: string;
  size: number;
  case_comments: string | null;
  created_by: string | null;
  date_created: string;
  is_archived: boolean;
}

const COLUMNS = `id, case_id, file_key, filename, content_type, size, case_comments, created_by,
  to_char(date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created, is_archived`;

const toRow = (r: RepresentmentRow): RepresentmentRow => ({
  ...r,
  id: Number(r.id),
  case_id: Number(r.case_id),
  size: Number(r.size),
});

/** The case's current representment: the newest one uploaded. */
export async function latestRepresentment(
  db: Queryable,
  tenant: string,
  caseId: number,
): Promise<RepresentmentRow | null> {
  const { rows } = await db.query<RepresentmentRow>(
    `select ${COLUMNS} from docs.representments where tenant_id = $1 and case_id = $2
     order by date_created desc, id desc limit 1`,
    [tenant, caseId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The representment a stored file belongs to (archived ones included). */
export async function representmentByKey(
  db: Queryable,
  tenant: string,
  key: string,
): Promise<RepresentmentRow | null> {
  const { rows } = await db.query<RepresentmentRow>(
    `select ${COLUMNS} from docs.representments where tenant_id = $1 and file_key = $2`,
    [tenant, key],
  );
  return rows[0] ? toRow(rows[0]) : null;
}
