import {
  ERT_CSV_MAX_BYTES,
  ERT_CSV_MAX_ROWS,
  ERT_MESSAGES as M,
  type ErtListQuery,
  type ErtRow,
  type InternalContext,
} from '@portal/contracts';
import {
  badRequest,
  conflict,
  containsPattern,
  forbidden,
  notFound,
  type Db,
  type Queryable,
} from '@portal/core';
import { parseObjectKey, type ObjectStore } from '@portal/storage';
import { parseCsv, readCsvObject } from '../onboarding/csv-file';
import { resolveScope, type Scope } from '../scope/scope';
import { insertErts, resolveErts } from './ert-writes';
import { firstBytes, sniffProofType } from './proof-type';

export const ERT_AREA = 'ert';
const NOT_FOUND = 'The uploaded file was not found; upload it again.';
const ts = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export function assertErtWriter(ctx: InternalContext): void {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw forbidden('This call needs a signed-in user.');
  if (ctx.read_only) throw forbidden('Read-only users cannot change ERT records.');
}

/** ERTs of the scope: the case's merchant and MID must be visible. */
function scopeWhere(scope: Scope, params: unknown[]): string {
  params.push(scope.tenant);
  let where = `e.tenant_id = $${params.length}`;
  if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    where += ` and e.merchant_id = any($${params.length}::bigint[])`;
  }
  if (scope.midsAllowed !== null || scope.midsExcluded.length) {
    params.push(scope.midsAllowed, scope.midsExcluded);
    where += ` and exists (select 1 from cases.cases c where c.id = e.case_id
      and ($${params.length - 1}::bigint[] is null or c.mid_id = any($${params.length - 1}::bigint[]))
      and c.mid_id <> all($${params.length}::bigint[]))`;
  }
  return where;
}

const SELECT = `select e.id, e.case_id, m.business_name as merchant, e.merchant_id, coalesce(s.name, 'Open') as status, e.status_id,
  coalesce(l.name, 'Low') as level, e.content, e.created_by, e.resolved_by, ${ts('e.created_at')} as date_created,
  ${ts('e.date_approved')} as date_approved, ${ts('e.date_resolved')} as date_resolved, ${ts('e.date_archived')} as date_archived
  from cases.erts e join cases.merchants m on m.id = e.merchant_id
  left join cases.ert_statuses s on s.id = e.status_id left join cases.ert_levels l on l.id = e.level_id`;

const SORT: Record<string, string> = {
  id: 'e.id',
  merchant: 'm.business_name',
  status: 'status',
  level: 'level',
  created_by: 'e.created_by',
  date_created: 'e.created_at',
  date_resolved: 'e.date_resolved',
};

const toRow = (r: Record<string, unknown>): ErtRow =>
  ({
    ...r,
    id: Number(r.id),
    cb_id: Number(r.case_id),
    merchant_id: Number(r.merchant_id),
    status_id: Number(r.status_id),
    case_id: undefined,
  }) as unknown as ErtRow;

/** GET /ert/erts: paged, sorted, searched (id, case id, merchant, content, created_by). */
export async function listErtRecords(db: Queryable, ctx: InternalContext, q: ErtListQuery) {
  const scope = await resolveScope(db, ctx);
  const params: unknown[] = [];
  let where = scopeWhere(scope, params);
  if (q.search?.trim()) {
    params.push(containsPattern(q.search), q.search.trim());
    const p = `$${params.length - 1}`;
    where += ` and (m.business_name ilike ${p} or e.content ilike ${p} or e.created_by ilike ${p}
      or e.id::text = $${params.length} or e.case_id::text = $${params.length})`;
  }
  const order = `${SORT[q.sort_by ?? 'date_created']} ${q.sort_order === 'asc' ? 'asc' : 'desc'} nulls last, e.id desc`;
  const start = q.start ?? 0;
  const limit = q.limit ?? 25;
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(
      `select count(*)::int as n from cases.erts e join cases.merchants m on m.id = e.merchant_id where ${where}`,
      params,
    ),
    db.query<Record<string, unknown>>(
      `${SELECT} where ${where} order by ${order} limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
  ]);
  return { data: rows.rows.map(toRow), pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}

async function lockVisible(tx: Queryable, ctx: InternalContext, ids: number[]) {
  const scope = await resolveScope(tx, ctx);
  const params: unknown[] = [];
  const where = scopeWhere(scope, params);
  params.push(ids);
  const { rows } = await tx.query<{ id: string; date_resolved: string | null }>(
    `select e.id, e.date_resolved from cases.erts e where ${where} and e.id = any($${params.length}::bigint[])
     order by e.id for update of e`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.id), r.date_resolved]));
}

async function oneRow(db: Queryable, id: number) {
  const { rows } = await db.query<Record<string, unknown>>(`${SELECT} where e.id = $1`, [id]);
  return toRow(rows[0]!);
}

/** A stored proof file of this tenant's ERT area whose bytes are of the type it was uploaded as, or a refusal. */
async function checkProof(store: ObjectStore, tenant: string, key: string) {
  const parsed = parseObjectKey(key);
  const info =
    parsed && parsed.tenant === tenant && parsed.area === ERT_AREA && (await store.head(tenant, key));
  const stream = info && (await store.read(tenant, key));
  if (!info || !stream) throw badRequest(NOT_FOUND);
  const detected = sniffProofType(await firstBytes(stream));
  if (detected !== info.contentType.split(';')[0]!.trim().toLowerCase())
    throw badRequest(M.proofTypeMismatch);
}

/** POST /ert/erts/{id}/resolve: resolves one open ERT, with an optional proof file. */
export async function resolveOne(
  db: Db,
  store: ObjectStore,
  ctx: InternalContext,
  id: number,
  key: string | undefined,
) {
  assertErtWriter(ctx);
  if (key) await checkProof(store, ctx.tenant, key);
  return db.transaction(async (tx) => {
    const found = await lockVisible(tx, ctx, [id]);
    if (!found.has(id)) throw notFound('ERT not found.');
    if (found.get(id) !== null) throw conflict(M.alreadyResolved);
    await resolveErts(tx, ctx, [id], key ?? null);
    return { message: M.resolved, data: await oneRow(tx, id) };
  });
}

/** Ids of a CSV's first column (header 'ID' or 'ERT ID' optional); bad lines are listed, nothing applied. */
function idsOf(rows: string[][], header: string[]): number[] {
  const all = /^[0-9]{1,15}$/.test(header[0] ?? '') ? [header, ...rows] : rows;
  const bad: string[] = [];
  const ids = all.map((r, i) => {
    const v = (r[0] ?? '').trim();
    if (!/^[0-9]{1,15}$/.test(v)) bad.push(`line ${i + 2}: '${v.slice(0, 20)}'`);
    return Number(v);
  });
  if (bad.length)
    throw badRequest(`Invalid ERT id(s): ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ', ...' : ''}`);
  if (!ids.length) throw badRequest('The CSV file must contain at least one row.');
  return [...new Set(ids)];
}

/** POST /ert/erts/bulk/resolve: every listed ERT must be visible; already resolved ones are left as they are. */
export async function resolveBulk(db: Db, store: ObjectStore, ctx: InternalContext, key: string) {
  assertErtWriter(ctx);
  const table = parseCsv(
    await readCsvObject(store, ctx.tenant, ERT_AREA, key, ERT_CSV_MAX_BYTES, NOT_FOUND),
    ERT_CSV_MAX_ROWS,
  );
  const ids = idsOf(table.rows, table.header);
  return db.transaction(async (tx) => {
    const found = await lockVisible(tx, ctx, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length)
      throw badRequest(
        `ERT(s) not found: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', ...' : ''}. Nothing was resolved.`,
      );
    const resolved = await resolveErts(tx, ctx, ids, key);
    return { message: M.bulkResolved(resolved.length), count: resolved.length, ids: resolved };
  });
}

/** POST /ert/erts/upload: a CSV of 'Case ID', 'Content' rows; every case must be in scope, all or nothing. */
export async function createBulk(db: Db, store: ObjectStore, ctx: InternalContext, key: string) {
  assertErtWriter(ctx);
  const table = parseCsv(
    await readCsvObject(store, ctx.tenant, ERT_AREA, key, ERT_CSV_MAX_BYTES, NOT_FOUND),
    ERT_CSV_MAX_ROWS,
  );
  const lower = table.header.map((h) => h.toLowerCase());
  const caseCol = lower.findIndex((h) => h === 'case id' || h === 'cb id' || h === 'id');
  const contentCol = lower.indexOf('content');
  if (caseCol < 0 || contentCol < 0)
    throw badRequest('The CSV file must have the columns Case ID and Content.');
  if (!table.rows.length) throw badRequest('The CSV file must contain at least one row.');
  const bad: string[] = [];
  const items = table.rows.map((r, i) => {
    const caseId = (r[caseCol] ?? '').trim();
    const content = (r[contentCol] ?? '').trim().slice(0, 10_000);
    if (!/^[0-9]{1,15}$/.test(caseId)) bad.push(`line ${i + 2}: invalid case id`);
    else if (!content) bad.push(`line ${i + 2}: content is required`);
    return { caseId: Number(caseId), content };
  });
  if (bad.length) throw badRequest(`${bad.slice(0, 10).join('; ')}. Nothing was added.`);
  const scope = await resolveScope(db, ctx);
  return db.transaction(async (tx) => {
    const params: unknown[] = [scope.tenant, [...new Set(items.map((i) => i.caseId))]];
    let where = 'c.tenant_id = $1 and c.id = any($2::bigint[])';
    if (scope.merchantIds !== null) {
      params.push(scope.merchantIds);
      where += ` and c.merchant_id = any($${params.length}::bigint[])`;
    }
    if (scope.midsAllowed !== null) {
      params.push(scope.midsAllowed);
      where += ` and c.mid_id = any($${params.length}::bigint[])`;
    }
    if (scope.midsExcluded.length) {
      params.push(scope.midsExcluded);
      where += ` and c.mid_id <> all($${params.length}::bigint[])`;
    }
    const { rows } = await tx.query<{ id: string; merchant_id: string }>(
      `select c.id, c.merchant_id from cases.cases c where ${where} order by c.id for share of c`,
      params,
    );
    const merchants = new Map(rows.map((r) => [Number(r.id), Number(r.merchant_id)]));
    const missing = [...new Set(items.filter((i) => !merchants.has(i.caseId)).map((i) => i.caseId))];
    if (missing.length)
      throw badRequest(
        `Case(s) not found: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', ...' : ''}. Nothing was added.`,
      );
    const ids = await insertErts(
      tx,
      ctx,
      items.map((i) => ({ caseId: i.caseId, merchantId: merchants.get(i.caseId)!, content: i.content })),
    );
    return { message: M.created(ids.length), count: ids.length, ids };
  });
}
