import { QC_MESSAGES, type Ert, type ErtBody, type InternalContext } from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import { insertErts } from '../ert/ert-writes';
import { findCase } from '../cases/case-repository';
import { lockCases } from '../cases/case-writes';
import { assertWritable, resolveScope } from '../scope/scope';

const ERT_COLUMNS = `id, case_id as cb_id, content, status_id, is_active, level_id, type_id, user_id, merchant_id, created_by,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created`;

const toErt = (r: Ert): Ert => ({
  ...r,
  id: Number(r.id),
  cb_id: Number(r.cb_id),
  user_id: r.user_id === null ? null : Number(r.user_id),
  merchant_id: Number(r.merchant_id),
});

/** GET /ert/case/{caseId}/erts: the case's ERT records, newest first. */
export async function listErts(
  db: Queryable,
  ctx: InternalContext,
  caseId: number,
  start: number,
  limit: number,
) {
  if (!(await findCase(db, await resolveScope(db, ctx), caseId))) throw notFound('Case not found.');
  const { rows } = await db.query<Ert & { total: number }>(
    `select ${ERT_COLUMNS}, count(*) over () as total from cases.erts where case_id = $1
     order by created_at desc, id desc offset $2 limit $3`,
    [caseId, start, limit],
  );
  return {
    data: rows.map(({ total: _total, ...r }) => toErt(r)),
    pagination: { total: Number(rows[0]?.total ?? 0), limit, start },
  };
}

/** POST /ert/case/{caseId}/erts (Add ERT from QC review): spec defaults, with a history row. */
export async function addErt(db: Db, ctx: InternalContext, caseId: number, body: ErtBody) {
  assertWritable(ctx);
  const content = body.content.trim();
  if (!content) throw badRequest('content is required.');
  return db.transaction(async (tx) => {
    const scope = await resolveScope(tx, ctx);
    await lockCases(tx, scope, [caseId], null);
    const { rows: cases } = await tx.query<{ merchant_id: number }>(
      `select merchant_id from cases.cases where id = $1`,
      [caseId],
    );
    const merchantId = Number(cases[0]!.merchant_id);
    if (body.merchant_id !== undefined && body.merchant_id !== merchantId)
      throw badRequest(`merchant_id: case ${caseId} belongs to another merchant.`);
    const [id] = await insertErts(tx, ctx, [
      {
        caseId,
        merchantId,
        content,
        status_id: body.status_id,
        is_active: body.is_active,
        level_id: body.level_id,
        type_id: body.type_id,
        user_id: body.user_id,
      },
    ]);
    const { rows } = await tx.query<Ert>(`select ${ERT_COLUMNS} from cases.erts where id = $1`, [id]);
    return { message: QC_MESSAGES.ertSaved, data: toErt(rows[0]!) };
  });
}
