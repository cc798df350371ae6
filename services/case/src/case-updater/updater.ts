import {
  UPDATER_MAX_BYTES,
  UPDATER_MAX_ROWS,
  type InternalContext,
  type UpdaterBody,
  type UpdaterListQuery,
  type UpdaterUpload,
} from '@portal/contracts';
import { badRequest, forbidden, type Db, type Queryable } from '@portal/core';
import { enqueue } from '@portal/jobs';
import type { ObjectStore } from '@portal/storage';
import { parseCsv, readCsvObject } from '../onboarding/csv-file';
import { resolveScope } from '../scope/scope';
import { caseUpdaterJob } from './updater-job';

export const UPDATER_AREA = 'case-updater';
const UPDATER_NOT_FOUND = 'The uploaded file was not found; upload it again.';
const STATUS_NAMES: Record<string, string> = {
  queued: 'Queued',
  running: 'Processing',
  done: 'Complete',
  failed: 'Failed',
};

export function assertUpdater(ctx: InternalContext): void {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw forbidden('This call needs a signed-in user.');
  if (ctx.read_only) throw forbidden('Read-only users cannot update cases.');
}

/** The ID and Verdict columns of a case updater CSV (header names, any case). */
function updaterColumns(header: string[]): { id: number; verdict: number } {
  const lower = header.map((h) => h.toLowerCase());
  const id = lower.indexOf('id');
  const verdict = lower.indexOf('verdict');
  if (id < 0 || verdict < 0)
    throw badRequest('The CSV file must have the columns ID and Verdict (see the CSV template).');
  return { id, verdict };
}

/**
 * POST /cm/cases/updater: the file is read and its shape checked now (a
 * refused file changes nothing); the rows are applied by a job in the
 * caller's scope, frozen on the upload.
 */
export async function submitUpdate(db: Db, store: ObjectStore, ctx: InternalContext, body: UpdaterBody) {
  assertUpdater(ctx);
  const bytes = await readCsvObject(
    store,
    ctx.tenant,
    UPDATER_AREA,
    body.s3_key,
    UPDATER_MAX_BYTES,
    UPDATER_NOT_FOUND,
  );
  const table = parseCsv(bytes, UPDATER_MAX_ROWS);
  updaterColumns(table.header);
  if (!table.rows.length) throw badRequest('The CSV file must contain at least one row.');
  const scope = await resolveScope(db, ctx);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into cases.updater_uploads (tenant_id, user_id, username, filename, s3_key, size, rows_total,
         scope_merchant_ids, scope_mids_allowed, scope_mids_excluded)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        ctx.tenant,
        ctx.user_id,
        ctx.username ?? '',
        body.filename,
        body.s3_key,
        bytes.length,
        table.rows.length,
        scope.merchantIds,
        scope.midsAllowed,
        scope.midsExcluded,
      ],
    );
    const id = Number(rows[0]!.id);
    const queued = await enqueue(
      tx,
      caseUpdaterJob,
      { upload_id: id },
      { tenant: ctx.tenant, createdBy: ctx.user_id, singletonKey: `updater-${id}` },
    );
    await tx.query('update cases.updater_uploads set job_id = $2 where id = $1', [id, queued.id]);
    return { id, message: 'CSV successfully uploaded.' };
  });
}

/** GET /cm/cases/updater: the caller's tenant uploads (provider staff) or their own, newest first. */
export async function listUpdates(
  db: Queryable,
  store: ObjectStore,
  ctx: InternalContext,
  q: UpdaterListQuery,
): Promise<{ data: UpdaterUpload[]; pagination: { total: number; limit: number; start: number } }> {
  const scope = await resolveScope(db, ctx);
  const params: unknown[] = [ctx.tenant];
  let where = 'u.tenant_id = $1';
  // Users below provider staff see only their own uploads (a result file names case ids).
  if (scope.merchantIds !== null) {
    params.push(ctx.user_id);
    where += ` and u.user_id = $${params.length}`;
  }
  const start = q.start ?? 0;
  const limit = q.limit ?? 999;
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(`select count(*)::int as n from cases.updater_uploads u where ${where}`, params),
    db.query<Record<string, unknown>>(
      `select u.id, u.state, u.username, u.filename, u.rows_total, u.rows_applied, u.result_key, u.message,
         to_char(u.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created
       from cases.updater_uploads u where ${where} order by u.id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
  ]);
  const data = await Promise.all(
    rows.rows.map(async (r) => ({
      id: Number(r.id),
      status_name: STATUS_NAMES[String(r.state)] ?? String(r.state),
      created_by_user: String(r.username),
      date_created: String(r.date_created),
      filename: String(r.filename),
      rows_total: Number(r.rows_total),
      rows_applied: Number(r.rows_applied),
      message: (r.message as string | null) ?? null,
      loc: r.result_key
        ? await store.downloadLink(ctx.tenant, String(r.result_key), {
            filename: `case-updater-result-${String(r.id)}.csv`,
            contentType: 'text/csv',
          })
        : null,
    })),
  );
  return { data, pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}
