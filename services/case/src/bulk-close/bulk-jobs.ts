import type { BulkJob, BulkJobList, InternalContext } from '@portal/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  type Db,
  type Queryable,
} from '@portal/core';
import { enqueue } from '@portal/jobs';
import { alertScope } from '../alerts/alert-scope';
import { countSql, type BulkJobRow } from './bulk-criteria';
import { autoAcceptJob, autoRefundJob } from './bulk-run';

export type BulkKind = BulkJobRow['kind'];

interface BulkCriteria {
  amt_from: number;
  amt_to: number;
  currency_id: number;
  merchant_id?: number;
  cycle_id?: number;
  reason_code_id?: number;
  source_id?: number;
  card_type_id?: number;
  mid_descriptor_id?: number;
  not_worth_fighting?: boolean;
}

const ts = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

const JOB_SELECT = `select j.id, j.kind, j.state, j.merchant_id, j.user_id, j.username, j.amt_from::float8 as amt_from,
  j.amt_to::float8 as amt_to, j.currency_id, cur.code as currency, j.cycle_id, cy.name as cycle, j.reason_code_id,
  case when rc.id is null then null else ct.name || ' - ' || rc.code end as reason_code, j.source_id, s.name as source,
  j.card_type_id, jct.name as card_type, j.mid_descriptor_id, ad.descriptor as mid_descriptor, j.preview_num,
  j.not_worth_fighting, j.records_num, ${ts('j.date_created')} as date_created, ${ts('j.date_confirmed')} as date_confirmed,
  ${ts('j.date_run_end')} as date_run_end, j.job_id::text as job_id, j.message
  from cases.bulk_jobs j
  join cases.currencies cur on cur.id = j.currency_id
  left join cases.cycles cy on cy.id = j.cycle_id
  left join cases.reason_codes rc on rc.id = j.reason_code_id
  left join cases.card_types ct on ct.id = rc.card_type_id
  left join cases.sources s on s.id = j.source_id
  left join cases.card_types jct on jct.id = j.card_type_id
  left join cases.alert_descriptors ad on ad.id = j.mid_descriptor_id`;

const toJob = (r: Record<string, unknown>): BulkJob =>
  ({
    ...r,
    id: Number(r.id),
    merchant_id: r.merchant_id === null ? null : Number(r.merchant_id),
    user_id: r.user_id === null ? null : Number(r.user_id),
    mid_descriptor_id: r.mid_descriptor_id === null ? null : Number(r.mid_descriptor_id),
  }) as BulkJob;

/** Refuses what the spec refuses before anything is written (spec 2 §5). */
function assertCaller(ctx: InternalContext): void {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw unauthorized('No authenticated user');
  if (ctx.read_only) throw forbidden('Read-only users cannot run bulk actions.');
}

function checkAmounts(c: BulkCriteria): void {
  if (c.amt_to < c.amt_from)
    throw badRequest('amt_to: The maximum value cannot be lower than the minimum value.');
}

/** The jobs of the kind in the caller's scope (the merchant's, or those the user could see), id descending. */
export async function listBulkJobs(
  db: Queryable,
  ctx: InternalContext,
  kind: BulkKind,
  q: { merchant_id?: number; start?: number; limit?: number },
): Promise<BulkJobList> {
  const scope = await alertScope(db, ctx, q);
  const params: unknown[] = [ctx.tenant, kind];
  let where = 'j.tenant_id = $1 and j.kind = $2';
  if (q.merchant_id !== undefined) {
    params.push(q.merchant_id);
    where += ` and j.merchant_id = $${params.length}`;
  } else if (scope.merchantIds !== null) {
    params.push(scope.merchantIds);
    where += ` and j.merchant_id = any($${params.length}::bigint[])`;
  }
  const limit = q.limit ?? 999;
  const start = q.start ?? 0;
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>(`select count(*)::int as n from cases.bulk_jobs j where ${where}`, params),
    db.query<Record<string, unknown>>(
      `${JOB_SELECT} where ${where} order by j.id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, start],
    ),
  ]);
  return { data: rows.rows.map(toJob), pagination: { total: count.rows[0]?.n ?? 0, limit, start } };
}

async function getBulkJob(db: Queryable, id: number): Promise<BulkJob> {
  const { rows } = await db.query<Record<string, unknown>>(`${JOB_SELECT} where j.id = $1`, [id]);
  return toJob(rows[0]!);
}

/**
 * Submits criteria: a pending job with the number of rows it would change
 * (the confirmation's 'This will affect {n} record(s).'). The caller's scope
 * (narrowed by merchant_id) is frozen on the job.
 */
export async function submitBulkJob(
  db: Db,
  ctx: InternalContext,
  kind: BulkKind,
  c: BulkCriteria,
): Promise<BulkJob> {
  assertCaller(ctx);
  checkAmounts(c);
  const scope = await alertScope(db, ctx, { merchant_id: c.merchant_id });
  const merchantId = c.merchant_id ?? ctx.merchant_id;
  return db.transaction(async (tx) => {
    const refs: Array<[string, string, number | undefined]> =
      kind === 'auto_accept'
        ? [
            ['currency_id', 'cases.currencies', c.currency_id],
            ['cycle_id', 'cases.cycles', c.cycle_id],
            ['reason_code_id', 'cases.reason_codes', c.reason_code_id],
          ]
        : [
            ['currency_id', 'cases.currencies', c.currency_id],
            ['source_id', 'cases.sources', c.source_id],
            ['card_type_id', 'cases.card_types', c.card_type_id],
          ];
    for (const [field, table, value] of refs) {
      if (value === undefined) throw badRequest(`${field}: This field is required`);
      const found = await tx.query(`select 1 from ${table} where id = $1`, [value]);
      if (!found.rows.length) throw badRequest(`${field}: ${value} is not a known value.`);
    }
    if (kind === 'auto_refund') {
      // The MID descriptor must be one of the scope's alert descriptors.
      const params: unknown[] = [ctx.tenant, c.mid_descriptor_id];
      let where = 'ad.tenant_id = $1 and ad.id = $2';
      if (scope.merchantIds !== null) {
        params.push(scope.merchantIds);
        where += ` and ad.merchant_id = any($3::bigint[])`;
      }
      const d = await tx.query(`select 1 from cases.alert_descriptors ad where ${where}`, params);
      if (!d.rows.length) throw badRequest(`mid_descriptor_id: descriptor ${c.mid_descriptor_id} not found.`);
    }
    const { rows } = await tx.query<{ id: string }>(
      `insert into cases.bulk_jobs (tenant_id, kind, state, merchant_id, scope_merchant_ids, scope_mids_allowed,
         scope_mids_excluded, user_id, username, amt_from, amt_to, currency_id, cycle_id, reason_code_id, source_id,
         card_type_id, mid_descriptor_id, not_worth_fighting, preview_num)
       values ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 0) returning id`,
      [
        ctx.tenant,
        kind,
        merchantId,
        scope.merchantIds,
        scope.midsAllowed,
        scope.midsExcluded,
        ctx.user_id,
        ctx.username,
        c.amt_from,
        c.amt_to,
        c.currency_id,
        c.cycle_id ?? null,
        c.reason_code_id ?? null,
        c.source_id ?? null,
        c.card_type_id ?? null,
        c.mid_descriptor_id ?? null,
        c.not_worth_fighting ?? false,
      ],
    );
    const id = Number(rows[0]!.id);
    const count = await tx.query<{ n: number }>(countSql(kind), [id]);
    await tx.query('update cases.bulk_jobs set preview_num = $2 where id = $1', [id, count.rows[0]?.n ?? 0]);
    return getBulkJob(tx, id);
  });
}

/** A job of the caller's tenant, kind and scope, locked; 404 otherwise. */
async function lockJob(tx: Queryable, ctx: InternalContext, kind: BulkKind, id: number): Promise<BulkJobRow> {
  const scope = await alertScope(tx, ctx, {});
  const { rows } = await tx.query<BulkJobRow>(
    `select * from cases.bulk_jobs where tenant_id = $1 and kind = $2 and id = $3 for update`,
    [ctx.tenant, kind, id],
  );
  const job = rows[0];
  const visible =
    job &&
    (scope.merchantIds === null ||
      (job.merchant_id !== null && scope.merchantIds.includes(Number(job.merchant_id))));
  if (!visible) throw notFound(`Job ${id} not found.`);
  return job;
}

/**
 * Confirms a pending job: queues the background run in the same transaction.
 * Confirming again answers the job unchanged (nothing is queued twice).
 */
export async function confirmBulkJob(
  db: Db,
  ctx: InternalContext,
  kind: BulkKind,
  id: number,
): Promise<BulkJob> {
  assertCaller(ctx);
  return db.transaction(async (tx) => {
    const job = await lockJob(tx, ctx, kind, id);
    if (job.state === 'cancelled') throw conflict(`Job ${id} was cancelled.`);
    if (job.state !== 'pending') return getBulkJob(tx, id);
    if (job.preview_num === 0) throw conflict('No records will be affected. Please try different criteria.');
    const scheduled = await tx.query(
      `select 1 from cases.bulk_jobs where tenant_id = $1 and kind = $2 and coalesce(merchant_id, 0) = coalesce($3::bigint, 0)
       and state in ('confirmed', 'running')`,
      [ctx.tenant, kind, job.merchant_id],
    );
    if (scheduled.rows.length)
      throw conflict('A job with these criteria is already scheduled; wait until it has run.');
    const definition = kind === 'auto_accept' ? autoAcceptJob : autoRefundJob;
    const queued = await enqueue(
      tx,
      definition,
      { bulk_job_id: id },
      { tenant: ctx.tenant, createdBy: ctx.user_id, singletonKey: `bulk-${id}` },
    );
    await tx.query(
      `update cases.bulk_jobs set state = 'confirmed', date_confirmed = now(), job_id = $2 where id = $1`,
      [id, queued.id],
    );
    return getBulkJob(tx, id);
  });
}

/** Cancel discards a pending job; a confirmed one cannot be cancelled any more. */
export async function cancelBulkJob(
  db: Db,
  ctx: InternalContext,
  kind: BulkKind,
  id: number,
): Promise<BulkJob> {
  assertCaller(ctx);
  return db.transaction(async (tx) => {
    const job = await lockJob(tx, ctx, kind, id);
    if (job.state === 'cancelled') return getBulkJob(tx, id);
    if (job.state !== 'pending') throw conflict(`Job ${id} is already ${job.state}; it cannot be cancelled.`);
    await tx.query(`update cases.bulk_jobs set state = 'cancelled' where id = $1`, [id]);
    return getBulkJob(tx, id);
  });
}
