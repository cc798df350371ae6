import {
  MERCHANT_COLUMNS,
  MID_COLUMNS,
  ONBOARDING_MAX_BYTES,
  ONBOARDING_MAX_ROWS,
  ONBOARDING_MESSAGES as M,
  ONBOARDING_RECORD_LIMIT,
  ONBOARDING_STATUS,
  type InternalContext,
  type OnboardingCreateBody,
  type OnboardingFile,
  type OnboardingFilesQuery,
  type OnboardingRecords,
  type OnboardingRecordsPatch,
  type OnboardingType,
} from '@portal/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  readSnapshot,
  type Db,
  type Queryable,
} from '@portal/core';
import type { ObjectStore } from '@portal/storage';
import { inScope } from '../merchant-admin/access';
import { resolveScope } from '../scope/scope';
import { parseCsv, readCsvObject } from './csv-file';
import { withCheckedUsernames, type CheckedUsernames, type UsernameLookup } from './username-lookup';
import {
  columnsOf,
  failingCells,
  loadReference,
  toCells,
  uniqueKey,
  validateRows,
  type Cells,
} from './validate';

export const ONBOARDING_AREA = 'onboarding';
const TYPE_ID: Record<OnboardingType, number> = { merchant: 1, mid: 2 };
const ts = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export function assertOnboarder(ctx: InternalContext): void {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw forbidden('This call needs a signed-in user.');
  if (ctx.read_only) throw forbidden('Read-only users cannot initiate onboarding.');
}

interface FileRow {
  id: string;
  tenant_id: string;
  merchant_id: string;
  type: OnboardingType;
  status_id: number;
  finalized_date: string | null;
  s3_key: string;
}

/** A file of the caller's tenant and merchant scope; 404 otherwise (no hint that it exists). */
export async function visibleFile(
  db: Queryable,
  ctx: InternalContext,
  id: number,
  lock = false,
): Promise<FileRow> {
  const scope = await resolveScope(db, ctx);
  const { rows } = await db.query<FileRow>(
    `select f.id, f.tenant_id, f.merchant_id, t.alias as type, f.status_id, f.finalized_date, f.s3_key
     from cases.onboarding_files f join cases.onboarding_types t on t.id = f.type_id
     where f.tenant_id = $1 and f.id = $2${lock ? ' for update of f' : ''}`,
    [ctx.tenant, id],
  );
  const file = rows[0];
  if (!file || !inScope(scope, Number(file.merchant_id))) throw notFound('Onboarding file not found.');
  return file;
}

/**
 * Usernames of a file's rows, live or deleted (a deleted row may be undeleted), read before the
 * transaction that revalidates the file so that the user service is asked outside it.
 */
export async function fileUsernames(db: Queryable, fileId: number): Promise<string[]> {
  const { rows } = await db.query<{ u: string }>(
    `select distinct trim(cells->>'username') as u from cases.onboarding_records
     where file_id = $1 and coalesce(trim(cells->>'username'), '') <> ''`,
    [fileId],
  );
  return rows.map((r) => r.u);
}

/**
 * Checks the whole file again and stores each row's errors; answers the number of failing cells.
 * Taken usernames come from `checked`, asked before the transaction (withCheckedUsernames).
 */
export async function revalidate(
  tx: Queryable,
  tenant: string,
  fileId: number,
  type: OnboardingType,
  checked?: CheckedUsernames,
): Promise<number> {
  const { rows } = await tx.query<{
    id: string;
    status_id: number;
    cells: Cells;
    errors: Record<string, string[]>;
  }>(
    'select id, status_id, cells, errors from cases.onboarding_records where file_id = $1 order by row_num',
    [fileId],
  );
  const records = rows.map((r) => ({ ...r, id: Number(r.id) }));
  const keys = [...new Set(records.map((r) => uniqueKey(type, r.cells)).filter(Boolean))];
  const usernames =
    type === 'merchant'
      ? [
          ...new Set(
            records
              .filter((r) => r.status_id === 1)
              .map((r) => (r.cells.username ?? '').trim())
              .filter(Boolean),
          ),
        ]
      : [];
  const ref = await loadReference(tx, tenant, type, keys, usernames, checked);
  const errors = validateRows(type, records, ref);
  const changedIds: number[] = [];
  const changedErrors: string[] = [];
  let failing = 0;
  for (const r of records) {
    const e = errors.get(r.id) ?? {};
    failing += failingCells(e);
    const next = JSON.stringify(e);
    if (next !== JSON.stringify(r.errors)) {
      changedIds.push(r.id);
      changedErrors.push(next);
    }
  }
  if (changedIds.length)
    await tx.query(
      `update cases.onboarding_records r set errors = u.e from unnest($1::bigint[], $2::jsonb[]) as u(id, e) where r.id = u.id`,
      [changedIds, changedErrors],
    );
  return failing;
}

/** POST /cm/onboarding: reads the uploaded CSV into records and checks them; answers the file id. */
export async function createOnboarding(
  db: Db,
  store: ObjectStore,
  ctx: InternalContext,
  body: OnboardingCreateBody,
  lookup?: UsernameLookup,
) {
  assertOnboarder(ctx);
  const scope = await resolveScope(db, ctx);
  const merchant = await db.query('select 1 from cases.merchants where tenant_id = $1 and id = $2', [
    ctx.tenant,
    body.merchant_id,
  ]);
  if (!merchant.rows.length || !inScope(scope, body.merchant_id))
    throw badRequest('merchant_id: Merchant not found.');
  const bytes = await readCsvObject(
    store,
    ctx.tenant,
    ONBOARDING_AREA,
    body.s3_key,
    ONBOARDING_MAX_BYTES,
    M.uploadFailed,
  );
  const table = parseCsv(bytes, ONBOARDING_MAX_ROWS);
  const columns = columnsOf(body.type);
  const index = new Map(table.header.map((h, i) => [h.toLowerCase(), i]));
  const missing = columns.filter((c) => c.required && !index.has(c.label.toLowerCase())).map((c) => c.label);
  if (missing.length)
    throw badRequest(
      `The CSV file is missing the column(s): ${missing.join(', ')}. Use the ${body.type === 'merchant' ? 'Merchant' : 'MID'} CSV template.`,
    );
  if (!table.rows.length) throw badRequest(M.emptyCsv);
  const parsed = table.rows.map((row) => {
    const c: Cells = {};
    for (const col of columns) {
      const i = index.get(col.label.toLowerCase());
      c[col.name] = i === undefined ? '' : (row[i] ?? '').slice(0, 500);
    }
    return c;
  });
  const cells = parsed.map((c) => JSON.stringify(c));
  const filename = body.filename ?? body.s3_key.split('/').pop() ?? 'upload.csv';
  // The user service is asked before the transaction opens (no network call inside one, issue 28).
  const usernames = body.type === 'merchant' ? parsed.map((c) => c.username ?? '') : [];
  return withCheckedUsernames(lookup, ctx.tenant, usernames, (checked) =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into cases.onboarding_files (tenant_id, merchant_id, type_id, filename, s3_key, user_id, username, rows_in_upload)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          ctx.tenant,
          body.merchant_id,
          TYPE_ID[body.type],
          filename,
          body.s3_key,
          ctx.user_id,
          ctx.username ?? '',
          cells.length,
        ],
      );
      const id = Number(rows[0]!.id);
      for (let i = 0; i < cells.length; i += 5000) {
        const part = cells.slice(i, i + 5000);
        await tx.query(
          `insert into cases.onboarding_records (file_id, row_num, cells)
         select $1, $2 + n, c from unnest($3::jsonb[]) with ordinality as u(c, n)`,
          [id, i, part],
        );
      }
      await revalidate(tx, ctx.tenant, id, body.type, checked);
      return { id, message: M.uploaded };
    }),
  );
}

/** GET /cm/onboarding/files: the files of the caller's scope in the date range (default: previous 7 days). */
export async function listOnboardingFiles(db: Queryable, ctx: InternalContext, q: OnboardingFilesQuery) {
  const scope = await resolveScope(db, ctx);
  const [from, to] = q.date_range
    ? q.date_range.split('|')
    : [
        new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
        new Date().toISOString().slice(0, 10),
      ];
  const params: unknown[] = [ctx.tenant, from, to];
  let where = `f.tenant_id = $1 and f.date_created >= $2::date and f.date_created < $3::date + 1`;
  if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    where += ` and f.merchant_id = any($${params.length}::bigint[])`;
  }
  const start = q.start ?? 0;
  const limit = q.limit ?? 999;
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(`select count(*)::int as n from cases.onboarding_files f where ${where}`, params),
    db.query<Record<string, unknown>>(
      `select f.id, f.merchant_id, m.business_name, f.username, coalesce(f.user_fname, f.username) as fname,
         coalesce(f.user_lname, '') as lname, t.id as type_id, t.name as type_name, f.status_id,
         ${ts('f.date_created')} as date_created, ${ts('f.finalized_date')} as finalized_date, f.rows_in_upload, f.message
       from cases.onboarding_files f join cases.merchants m on m.id = f.merchant_id
       join cases.onboarding_types t on t.id = f.type_id
       where ${where} order by f.date_created desc, f.id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
  ]);
  const data: OnboardingFile[] = rows.rows.map((r) => ({
    id: Number(r.id),
    merchant: { id: Number(r.merchant_id), business_name: String(r.business_name) },
    user: { name: String(r.fname), last_name: String(r.lname) },
    onboarding_type: { id: Number(r.type_id), name: String(r.type_name) },
    status_id: Number(r.status_id),
    date_created: String(r.date_created),
    finalized_date: (r.finalized_date as string | null) ?? null,
    rows_in_upload: Number(r.rows_in_upload),
    message: (r.message as string | null) ?? null,
  }));
  return { data, pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}

/**
 * GET /cm/onboarding/{id}/records: the rows with their cells' values and error messages.
 *
 * One snapshot: the file's status, finalized date and message come from one read of its row, and
 * the rows and counts from the same moment. (Read as four queries on the pool, the scope check's
 * read of the file could see status 2 (finalizing) and the next query the finalize job's commit
 * (status 3 and finalized_date together): an answer mixing two moments.)
 */
export async function getRecords(
  db: Db,
  ctx: InternalContext,
  id: number,
  q: { start?: number; limit?: number },
): Promise<OnboardingRecords> {
  const start = q.start ?? 0;
  const limit = q.limit ?? ONBOARDING_RECORD_LIMIT;
  return readSnapshot(db, async (tx) => {
    const file = await visibleFile(tx, ctx, id);
    const head = await tx.query<Record<string, string | null>>(
      `select f.filename, f.username, f.message, ${ts('f.date_created')} as date_created,
         ${ts('f.date_updated')} as date_updated, ${ts('f.finalized_date')} as finalized_date,
         (select count(*) from cases.onboarding_records r where r.file_id = f.id)::int as total
       from cases.onboarding_files f where f.id = $1`,
      [id],
    );
    const records = await tx.query<{
      id: string;
      row_num: number;
      status_id: number;
      cells: Cells;
      errors: Record<string, string[]>;
    }>(
      `select id, row_num, status_id, cells, errors from cases.onboarding_records where file_id = $1
       order by row_num limit $2 offset $3`,
      [id, limit, start],
    );
    const failing = await tx.query<{ n: number }>(
      `select coalesce(sum((select count(*) from jsonb_each(r.errors) e where jsonb_array_length(e.value) > 0)), 0)::int as n
       from cases.onboarding_records r where r.file_id = $1 and r.status_id = 1`,
      [id],
    );
    const h = head.rows[0]!;
    return {
      id,
      title: String(h.filename),
      type: file.type,
      status_id: file.status_id,
      date_created: String(h.date_created),
      date_updated: String(h.date_updated),
      finalized_date: h.finalized_date ?? null,
      uploaded_by: String(h.username),
      message: h.message ?? null,
      columns: (file.type === 'merchant' ? MERCHANT_COLUMNS : MID_COLUMNS).map(({ label, name }) => ({
        label,
        name,
      })),
      total_failing_validation: failing.rows[0]?.n ?? 0,
      data: records.rows.map((r) => ({
        id: Number(r.id),
        row_num: r.row_num,
        status: { value: r.status_id },
        cells: toCells(file.type, r.cells, r.errors),
      })),
      pagination: { total: Number(h.total), limit, start },
    };
  });
}

function assertEditable(file: FileRow) {
  if (file.finalized_date !== null || file.status_id !== ONBOARDING_STATUS.open) throw conflict(M.finalized);
}

/** PATCH /cm/onboarding/{id}/records: edits cells, deletes (2) or undeletes (1) rows; the file is re-checked. */
export async function patchRecords(
  db: Db,
  ctx: InternalContext,
  id: number,
  body: OnboardingRecordsPatch,
  lookup?: UsernameLookup,
) {
  assertOnboarder(ctx);
  // The usernames the file will hold (its rows' and the edited cells'), checked before the transaction.
  const before = await visibleFile(db, ctx, id);
  const usernames =
    before.type === 'merchant'
      ? [...(await fileUsernames(db, id)), ...body.records.map((r) => r.cells?.username ?? '')]
      : [];
  return withCheckedUsernames(lookup, ctx.tenant, usernames, (checked) =>
    db.transaction(async (tx) => {
      const file = await visibleFile(tx, ctx, id, true);
      assertEditable(file);
      const allowed = new Set<string>(columnsOf(file.type).map((c) => c.name));
      for (const r of body.records) {
        const unknown = Object.keys(r.cells ?? {}).filter((k) => !allowed.has(k));
        if (unknown.length) throw badRequest(`Unknown column(s): ${unknown.join(', ')}.`);
        const { rows } = await tx.query<{ status_id: number }>(
          'select status_id from cases.onboarding_records where file_id = $1 and id = $2',
          [id, r.id],
        );
        if (!rows[0]) throw notFound(`Record ${r.id} not found.`);
        const nextStatus = r.status_id ?? rows[0].status_id;
        // A deleted row cannot be saved: its cells change only once it is undeleted.
        if (r.cells && Object.keys(r.cells).length && nextStatus === 2)
          throw badRequest('A deleted row cannot be edited; undelete it first.');
        await tx.query(
          `update cases.onboarding_records set status_id = $3, cells = cells || $4::jsonb where file_id = $1 and id = $2`,
          [id, r.id, nextStatus, JSON.stringify(r.cells ?? {})],
        );
      }
      await tx.query('update cases.onboarding_files set date_updated = now() where id = $1', [id]);
      const failing = await revalidate(tx, ctx.tenant, id, file.type, checked);
      return { message: M.recordUpdated, total_failing_validation: failing };
    }),
  );
}

/**
 * DELETE /cm/onboarding/{id}: discards an upload that was never finalized (issue 29), so that
 * abandoned files do not pile up in the history. Scoped like every onboarding call (tenant, the
 * caller's merchant subtree, no read-only user); a file that is finalizing or finalized is refused
 * with 409 and nothing changes. The rows go with the file (on delete cascade) in one transaction;
 * the uploaded CSV is removed from the store after the commit (a leftover object is harmless, a
 * file row without its CSV would not be). The gateway audits the call like every write.
 */
export async function discardOnboarding(
  db: Db,
  store: () => Promise<ObjectStore>,
  ctx: InternalContext,
  id: number,
  log?: { warn: (obj: object, msg: string) => void },
) {
  assertOnboarder(ctx);
  const file = await db.transaction(async (tx) => {
    const f = await visibleFile(tx, ctx, id, true);
    assertEditable(f);
    await tx.query('delete from cases.onboarding_files where id = $1 and tenant_id = $2', [id, ctx.tenant]);
    return f;
  });
  try {
    // The same upload may have been read into another file: its CSV stays while one names it.
    const shared = await db.query(
      'select 1 from cases.onboarding_files where tenant_id = $1 and s3_key = $2',
      [ctx.tenant, file.s3_key],
    );
    if (!shared.rows.length) await (await store()).delete(ctx.tenant, file.s3_key);
  } catch (error) {
    log?.warn({ err: error, file: id }, 'onboarding CSV of a discarded file not removed from the store');
  }
  return { id, message: M.discarded };
}
