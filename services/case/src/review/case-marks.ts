import { CASE_MARK_MINUTES, type CaseMark, type CaseMarkBody, type InternalContext } from '@portal/contracts';
import { badRequest, conflict, type Db, type Queryable } from '@portal/core';
import { addHistory } from '../cases/case-history';
import { lockCases } from '../cases/case-writes';
import { assertWritable, resolveScope } from '../scope/scope';

interface MarkRow {
  case_id: number;
  type: string;
  status: number;
  user_id: number | null;
  username: string | null;
  marked_at: string;
}

const MARK_COLUMNS = `case_id, type, status, user_id, username,
  to_char(marked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as marked_at`;
/** A mark older than this no longer blocks others (an abandoned browser tab). */
const LIVE = `marked_at > now() - interval '${CASE_MARK_MINUTES} minutes'`;

const toMark = (r: MarkRow): CaseMark => ({
  type: r.type,
  status: Number(r.status),
  user_id: r.user_id === null ? null : Number(r.user_id),
  username: r.username,
  marked_at: r.marked_at,
});

/** The live marks of the given cases. */
export async function liveMarks(db: Queryable, ids: readonly number[]): Promise<Map<number, CaseMark>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<MarkRow>(
    `select ${MARK_COLUMNS} from cases.case_marks where case_id = any($1::bigint[]) and ${LIVE}`,
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.case_id), toMark(r)]));
}

/** Refuses when another user holds a live mark on one of the cases (two reviewers never take the same case). */
export async function assertNotMarkedByOther(
  tx: Queryable,
  ctx: InternalContext,
  ids: readonly number[],
): Promise<void> {
  for (const [id, mark] of await liveMarks(tx, ids)) {
    if (mark.user_id !== ctx.user_id)
      throw conflict(`Case ${id} is being worked on by ${mark.username ?? 'another user'}.`);
  }
}

/** Sets (or refreshes) the caller's mark on locked, in-scope cases. */
export async function setMarks(
  tx: Queryable,
  ctx: InternalContext,
  ids: readonly number[],
  type: string,
  status: number,
): Promise<void> {
  await tx.query(
    `insert into cases.case_marks (case_id, tenant_id, type, status, user_id, username)
     select id, $2, $3, $4, $5, $6 from unnest($1::bigint[]) as u(id)
     on conflict (case_id) do update set type = excluded.type, status = excluded.status, user_id = excluded.user_id,
       username = excluded.username, marked_at = now()`,
    [ids, ctx.tenant, type, status, ctx.user_id, ctx.username],
  );
}

/** Clears the caller's own marks (and expired ones); another user's live mark stays. */
export async function clearMarks(
  tx: Queryable,
  ctx: InternalContext,
  ids: readonly number[],
): Promise<number[]> {
  const { rows } = await tx.query<{ case_id: number }>(
    `delete from cases.case_marks where case_id = any($1::bigint[])
       and (user_id is not distinct from $2::bigint or not (${LIVE})) returning case_id`,
    [ids, ctx.user_id],
  );
  return rows.map((r) => Number(r.case_id));
}

/**
 * POST|PUT|PATCH /cm/cases/patch (spec 2 §4, spec 1 §4.2). Type upload: 16
 * marks, 1 releases; other types: 1 marks (opening a case), 2 releases.
 */
export async function patchMarks(db: Db, ctx: InternalContext, body: CaseMarkBody) {
  assertWritable(ctx);
  const ids = [...new Set(body.ids.split(',').map(Number))];
  if (ids.length > 500) throw badRequest('ids: at most 500 cases.');
  const release = body.type === 'upload' ? body.status === 1 : body.status === 2;
  const mark = body.type === 'upload' ? body.status === 16 : body.status === 1;
  if (!release && !mark) throw badRequest(`status: ${body.status} is not valid for type ${body.type}.`);
  return db.transaction(async (tx) => {
    const scope = await resolveScope(tx, ctx);
    await lockCases(tx, scope, ids, ids.length === 1 ? null : 'ids');
    let changed: number[];
    if (mark) {
      await assertNotMarkedByOther(tx, ctx, ids);
      await setMarks(tx, ctx, ids, body.type, body.status);
      changed = ids;
    } else {
      changed = await clearMarks(tx, ctx, ids);
    }
    const verb = mark ? 'Opened' : 'Released';
    await addHistory(
      tx,
      ctx,
      changed.map((caseId) => ({ caseId, action: `${verb} (${body.type})` })),
    );
    const marks = await liveMarks(tx, ids);
    return {
      message: mark ? 'The case(s) are marked.' : 'The case(s) are released.',
      data: ids.map((id) => ({ id, mark: marks.get(id) ?? null })),
    };
  });
}
