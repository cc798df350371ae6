import type { CaseHistoryRow, InternalContext } from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** One history row per case: who did what (the effective user and, while impersonating, the real actor). */
export async function addHistory(
  tx: Queryable,
  ctx: InternalContext,
  entries: ReadonlyArray<{ caseId: number; action: string }>,
): Promise<void> {
  if (!entries.length) return;
  const actor = ctx.actor_id !== null && ctx.actor_id !== ctx.user_id ? ctx.actor_id : ctx.user_id;
  await tx.query(
    `insert into cases.case_history (tenant_id, case_id, user_id, username, actor_id, actor_username, action)
     select $1, e.case_id, $2, $3, $4, $5, e.action
     from unnest($6::bigint[], $7::text[]) as e(case_id, action)`,
    [
      ctx.tenant,
      ctx.user_id,
      ctx.username ?? (ctx.kind === 'system' ? 'system' : 'unknown'),
      actor,
      actor !== ctx.user_id ? `user #${actor}` : ctx.username,
      entries.map((e) => e.caseId),
      entries.map((e) => e.action),
    ],
  );
}

export async function listHistory(
  db: Queryable,
  caseId: number,
  start: number,
  limit: number | undefined,
): Promise<{ data: CaseHistoryRow[]; total: number }> {
  const { rows } = await db.query<CaseHistoryRow & { total: number }>(
    `select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as timestamp, coalesce(username, 'system') as user,
       user_id, actor_id, actor_username, action, count(*) over () as total
     from cases.case_history where case_id = $1
     order by created_at desc, id desc
     offset $2 ${limit === undefined ? '' : 'limit $3'}`,
    limit === undefined ? [caseId, start] : [caseId, start, limit],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length) {
    const c = await db.query<{ n: number }>(
      `select count(*)::int as n from cases.case_history where case_id = $1`,
      [caseId],
    );
    total = Number(c.rows[0]?.n ?? 0);
  }
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      timestamp: r.timestamp,
      user: r.user,
      user_id: r.user_id === null ? null : Number(r.user_id),
      actor_id: r.actor_id === null ? null : Number(r.actor_id),
      actor_username: r.actor_username,
      action: r.action,
    })),
    total,
  };
}
