import type { CaseComment, CaseCommentWriteResult, InternalContext } from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import { resolveScope } from '../scope/scope';
import { findCase } from './case-repository';
import { lockCases, write } from './case-writes';

/** What a history row says of a comment: its text, cut to keep the history grid readable. */
const HISTORY_TEXT = 200;
function commentAction(text: string): string {
  return `Comment added: ${text.length > HISTORY_TEXT ? `${text.slice(0, HISTORY_TEXT)}...` : text}`;
}

const COLUMNS = `id, case_id, user_id, coalesce(username, 'system') as user, text,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at`;

function toComment(r: CaseComment): CaseComment {
  return {
    ...r,
    id: Number(r.id),
    case_id: Number(r.case_id),
    user_id: r.user_id === null ? null : Number(r.user_id),
  };
}

/** GET /cm/cases/{id}/comments: newest first; 404 for a case outside the caller's scope. */
export async function listComments(
  db: Queryable,
  ctx: InternalContext,
  caseId: number,
  start: number,
  limit: number,
): Promise<{ data: CaseComment[]; pagination: { total: number; limit: number; start: number } }> {
  const scope = await resolveScope(db, ctx);
  if (!(await findCase(db, scope, caseId))) throw notFound('Case not found.');
  const { rows } = await db.query<CaseComment>(
    `select ${COLUMNS} from cases.case_comments where tenant_id = $1 and case_id = $2
     order by created_at desc, id desc offset $3 limit $4`,
    [ctx.tenant, caseId, start, limit],
  );
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from cases.case_comments where tenant_id = $1 and case_id = $2`,
    [ctx.tenant, caseId],
  );
  return { data: rows.map(toComment), pagination: { total: Number(count.rows[0]?.n ?? 0), limit, start } };
}

/**
 * POST /cm/cases/{id}/comments: a case write (read-only callers refused, scope
 * checked under a row lock), with a history row; the case row's `comments`
 * becomes the newest comment's text.
 */
export async function addComment(
  db: Db,
  ctx: InternalContext,
  caseId: number,
  text: string,
): Promise<CaseCommentWriteResult> {
  const comment = text.trim();
  if (!comment) throw badRequest('comment: must not be blank.');
  let added: CaseComment | undefined;
  const result = await write(db, ctx, async (tx, scope) => {
    await lockCases(tx, scope, [caseId], null);
    const { rows } = await tx.query<CaseComment>(
      `insert into cases.case_comments (tenant_id, case_id, user_id, username, actor_id, text)
       values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
      [ctx.tenant, caseId, ctx.user_id, ctx.username ?? null, ctx.actor_id ?? null, comment],
    );
    added = toComment(rows[0]!);
    await tx.query(`update cases.cases set comments = $2, updated_at = now() where id = $1`, [
      caseId,
      comment,
    ]);
    return {
      ids: [caseId],
      history: [{ caseId, action: commentAction(comment) }],
      message: 'The comment was successfully added.',
    };
  });
  return { ...result, comment: added! };
}
