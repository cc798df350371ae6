import type {
  InternalContext,
  ReconciliationFlagBody,
  ReconciliationList,
  ReconciliationQuery,
  ReconciliationReviewBody,
  ReconciliationRow,
} from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import { Params, percent, rollupWhere, type ReportFilter } from './report-filter';

/**
 * Reconciliation report (spec 3 §2, §3, §4): one row per processor (platform) and post day of the
 * caller's scope: retrievals, first and second cycle chargebacks by card type, their change against the
 * processor's previous row, representments sent, wins and wins per representment. A row can be flagged
 * with a comment, unflagged and marked reviewed; the marks belong to the scope that made them
 * (scope_merchant_id: the merchant of a merchant or partner user, 0 for provider staff).
 */

const scopeOwner = (ctx: InternalContext): number => ctx.merchant_id ?? 0;

interface DbRow {
  date: string;
  processor_id: number;
  platform: string;
  retrievals: string;
  first_cycle: Record<string, number> | null;
  second_cycle: Record<string, number> | null;
  first_total: string;
  second_total: string;
  prev_first: string | null;
  prev_second: string | null;
  representments: string;
  wins: string;
  flag_id: string | null;
  flag_comment: string | null;
  flag_by: string | null;
  reviewer: string | null;
  total: string;
}

function reconciliationSql(f: ReportFilter, owner: number, p: Params): string {
  const tenant = p.add(f.scope.tenant);
  const scope = p.add(owner);
  return `with d as (
      select r.day, r.processor_id, ct.name as card_type, sum(r.c9) as c9, sum(r.c1) as c1, sum(r.c2) as c2,
        sum(r.represented) as represented, sum(r.v4) as wins
      from cases.report_daily r join cases.card_types ct on ct.id = r.card_type_id
      where ${rollupWhere(f, p, 'post')} and r.processor_id > 0
      group by 1, 2, 3
    ),
    x as (
      select day, processor_id, sum(c9) as retrievals,
        jsonb_object_agg(card_type, c1) filter (where c1 <> 0) as first_cycle,
        jsonb_object_agg(card_type, c2) filter (where c2 <> 0) as second_cycle,
        sum(c1) as first_total, sum(c2) as second_total, sum(represented) as representments, sum(wins) as wins
      from d group by 1, 2
      having sum(c9) + sum(c1) + sum(c2) + sum(represented) + sum(wins) > 0
    )
    select to_char(x.day, 'YYYY-MM-DD') as date, x.processor_id, pr.name as platform, x.retrievals, x.first_cycle,
      x.second_cycle, x.first_total, x.second_total,
      lag(x.first_total) over w as prev_first, lag(x.second_total) over w as prev_second,
      x.representments, x.wins, fl.id as flag_id, fl.comment as flag_comment, fl.created_username as flag_by,
      rv.reviewer, count(*) over () as total
    from x join cases.processors pr on pr.id = x.processor_id
    left join cases.reconciliation_flags fl on fl.tenant_id = ${tenant} and fl.scope_merchant_id = ${scope}
      and fl.processor_id = x.processor_id and fl.day = x.day
    left join cases.reconciliation_reviews rv on rv.tenant_id = ${tenant} and rv.scope_merchant_id = ${scope}
      and rv.processor_id = x.processor_id and rv.day = x.day
    window w as (partition by x.processor_id order by x.day)`;
}

const trend = (current: number, previous: string | null): number | null =>
  previous === null || Number(previous) === 0
    ? null
    : Math.round(((current - Number(previous)) / Number(previous)) * 10_000) / 100;

function toRow(r: DbRow): ReconciliationRow {
  const first = Number(r.first_total);
  const second = Number(r.second_total);
  const reps = Number(r.representments);
  const wins = Number(r.wins);
  return {
    id: `${r.processor_id}|${r.date}`,
    date: r.date,
    processor_id: Number(r.processor_id),
    platform: r.platform,
    retrievals: Number(r.retrievals),
    first_cycle: r.first_cycle ?? {},
    second_cycle: r.second_cycle ?? {},
    first_cycle_total: first,
    second_cycle_total: second,
    first_cycle_trend: trend(first, r.prev_first),
    second_cycle_trend: trend(second, r.prev_second),
    representments: reps,
    total_wins: wins,
    win_trend: reps > 0 ? percent(wins, reps) : null,
    flag:
      r.flag_id === null
        ? null
        : { id: Number(r.flag_id), comment: r.flag_comment ?? '', created_by: r.flag_by },
    reviewer: r.reviewer,
  };
}

/** The rows, newest day first (paged). `limit` null: every row (CSV). */
export async function reconciliation(
  db: Queryable,
  f: ReportFilter,
  ctx: InternalContext,
  q: Pick<ReconciliationQuery, 'start' | 'limit'>,
): Promise<ReconciliationList> {
  const p = new Params();
  const sql = reconciliationSql(f, scopeOwner(ctx), p);
  const limit = q.limit ?? 50;
  const start = q.start ?? 0;
  const { rows } = await db.query<DbRow>(
    `select * from (${sql}) y order by date desc, platform limit ${p.add(limit === 0 ? null : limit)} offset ${p.add(limit === 0 ? 0 : start)}`,
    p.values,
  );
  const total = Number(rows[0]?.total ?? 0);
  return { data: limit === 0 ? [] : rows.map(toRow), pagination: { total, limit, start } };
}

export async function reconciliationAll(
  db: Queryable,
  f: ReportFilter,
  ctx: InternalContext,
): Promise<ReconciliationRow[]> {
  const p = new Params();
  const { rows } = await db.query<DbRow>(
    `select * from (${reconciliationSql(f, scopeOwner(ctx), p)}) y order by date desc, platform`,
    p.values,
  );
  return rows.map(toRow);
}

/** Processors a flag or review may name: those with chargebacks in the caller's scope on that day. */
async function checkRows(
  db: Queryable,
  f: ReportFilter,
  rows: Array<{ processor_id: number; date: string }>,
) {
  const p = new Params();
  const where = rollupWhere(f, p, 'post', { from: '1900-01-01', to: '9999-12-31' });
  const { rows: found } = await db.query<{ processor_id: number; day: string }>(
    `select distinct r.processor_id, to_char(r.day, 'YYYY-MM-DD') as day from cases.report_daily r
     join unnest(${p.add(rows.map((r) => r.processor_id))}::int[], ${p.add(rows.map((r) => r.date))}::date[]) k(pid, day)
       on k.pid = r.processor_id and k.day = r.day
     where ${where} and r.n > 0`,
    p.values,
  );
  const ok = new Set(found.map((r) => `${r.processor_id}|${r.day}`));
  const missing = rows.find((r) => !ok.has(`${r.processor_id}|${r.date}`));
  if (missing)
    throw badRequest(`No reconciliation row for platform ${missing.processor_id} on ${missing.date}.`);
}

function assertDates(rows: Array<{ date: string }>) {
  for (const r of rows) {
    const d = new Date(`${r.date}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== r.date)
      throw badRequest(`date: ${r.date} is not a valid date.`);
  }
}

/** Flags rows with a comment (a row flagged again gets the new comment). */
export async function flagRows(db: Db, f: ReportFilter, ctx: InternalContext, body: ReconciliationFlagBody) {
  assertDates(body.flags);
  await checkRows(db, f, body.flags);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; processor_id: number; date: string }>(
      `insert into cases.reconciliation_flags (tenant_id, scope_merchant_id, processor_id, day, comment, created_by, created_username)
       select $1, $2, k.pid, k.day, k.comment, $3, $4
       from unnest($5::int[], $6::date[], $7::text[]) k(pid, day, comment)
       on conflict (tenant_id, scope_merchant_id, processor_id, day)
       do update set comment = excluded.comment, created_by = excluded.created_by,
         created_username = excluded.created_username, created_at = now()
       returning id, processor_id, to_char(day, 'YYYY-MM-DD') as date`,
      [
        ctx.tenant,
        scopeOwner(ctx),
        ctx.user_id,
        ctx.username,
        body.flags.map((x) => x.processor_id),
        body.flags.map((x) => x.date),
        body.flags.map((x) => x.comment.trim()),
      ],
    );
    return {
      data: rows.map((r) => ({ id: Number(r.id), processor_id: Number(r.processor_id), date: r.date })),
    };
  });
}

/** Removes the caller's scope's flags by id; an id of another scope or tenant is a 404. */
export async function unflagRows(db: Db, ctx: InternalContext, ids: number[]) {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `delete from cases.reconciliation_flags where tenant_id = $1 and scope_merchant_id = $2 and id = any($3::bigint[])`,
      [ctx.tenant, scopeOwner(ctx), ids],
    );
    if (rowCount !== new Set(ids).size) throw notFound('Flag not found.');
    return { count: rowCount };
  });
}

/** Marks rows reviewed by the caller. */
export async function reviewRows(
  db: Db,
  f: ReportFilter,
  ctx: InternalContext,
  body: ReconciliationReviewBody,
) {
  assertDates(body.rows);
  await checkRows(db, f, body.rows);
  const { rowCount } = await db.query(
    `insert into cases.reconciliation_reviews (tenant_id, scope_merchant_id, processor_id, day, reviewed_by, reviewer)
     select $1, $2, k.pid, k.day, $3, $4 from unnest($5::int[], $6::date[]) k(pid, day)
     on conflict (tenant_id, scope_merchant_id, processor_id, day)
     do update set reviewed_by = excluded.reviewed_by, reviewer = excluded.reviewer, reviewed_at = now()`,
    [
      ctx.tenant,
      scopeOwner(ctx),
      ctx.user_id,
      ctx.username,
      body.rows.map((x) => x.processor_id),
      body.rows.map((x) => x.date),
    ],
  );
  return { count: rowCount };
}
