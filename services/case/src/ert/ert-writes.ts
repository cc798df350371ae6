import { ERT_DEFAULTS, ERT_RESOLVED_STATUS, type InternalContext } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { emitEvents } from '@portal/jobs';
import { addHistory } from '../cases/case-history';

/**
 * The one place where ERTs are created and the one where they are resolved
 * (the ERT_CREATED / ERT_RESOLVED webhook events belong right here, in the
 * same transaction).
 */
interface NewErt {
  caseId: number;
  merchantId: number;
  content: string;
  status_id?: number;
  is_active?: boolean;
  level_id?: number;
  type_id?: number;
  user_id?: number | null;
}

const short = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}...` : s);

/** Inserts ERTs with the spec 3 §9 defaults and a case history row each; answers their ids in order. */
export async function insertErts(
  tx: Queryable,
  ctx: InternalContext,
  erts: readonly NewErt[],
): Promise<number[]> {
  if (!erts.length) return [];
  const { rows } = await tx.query<{ id: string }>(
    `insert into cases.erts (tenant_id, case_id, merchant_id, content, status_id, is_active, level_id, type_id, user_id, created_by)
     select $1, e.case_id, e.merchant_id, e.content, e.status_id, e.is_active, e.level_id, e.type_id, e.user_id, $2
     from unnest($3::bigint[], $4::bigint[], $5::text[], $6::smallint[], $7::boolean[], $8::smallint[], $9::smallint[], $10::bigint[])
       with ordinality as e(case_id, merchant_id, content, status_id, is_active, level_id, type_id, user_id, n)
     order by e.n returning id`,
    [
      ctx.tenant,
      ctx.username,
      erts.map((e) => e.caseId),
      erts.map((e) => e.merchantId),
      erts.map((e) => e.content),
      erts.map((e) => e.status_id ?? ERT_DEFAULTS.status_id),
      erts.map((e) => e.is_active ?? ERT_DEFAULTS.is_active),
      erts.map((e) => e.level_id ?? ERT_DEFAULTS.level_id),
      erts.map((e) => e.type_id ?? ERT_DEFAULTS.type_id),
      erts.map((e) => (e.user_id === undefined ? ctx.user_id : e.user_id)),
    ],
  );
  await addHistory(
    tx,
    ctx,
    erts.map((e) => ({ caseId: e.caseId, action: `ERT added: ${short(e.content)}` })),
  );
  await emitEvents(
    tx,
    ctx.tenant,
    rows.map((r, i) => ({
      type: 'ERT_CREATED',
      merchant_id: erts[i]!.merchantId,
      data: { ert_id: Number(r.id), case_id: erts[i]!.caseId, content: erts[i]!.content },
    })),
    ctx.user_id,
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Resolves open ERTs (already locked by the caller): resolved_by, date_resolved, a history row each. */
export async function resolveErts(
  tx: Queryable,
  ctx: InternalContext,
  ids: readonly number[],
  resolveKey: string | null,
): Promise<number[]> {
  if (!ids.length) return [];
  const { rows } = await tx.query<{ id: string; case_id: string; merchant_id: string }>(
    `update cases.erts set status_id = $3, is_active = false, resolved_by = $4, resolved_user_id = $5,
       date_resolved = now(), resolve_key = coalesce($6, resolve_key)
     where tenant_id = $1 and id = any($2::bigint[]) and date_resolved is null returning id, case_id, merchant_id`,
    [ctx.tenant, ids, ERT_RESOLVED_STATUS, ctx.username, ctx.user_id, resolveKey],
  );
  await addHistory(
    tx,
    ctx,
    rows.map((r) => ({ caseId: Number(r.case_id), action: `ERT #${r.id} resolved` })),
  );
  await emitEvents(
    tx,
    ctx.tenant,
    rows.map((r) => ({
      type: 'ERT_RESOLVED',
      merchant_id: Number(r.merchant_id),
      data: { ert_id: Number(r.id), case_id: Number(r.case_id), resolved_by: ctx.username },
    })),
    ctx.user_id,
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
