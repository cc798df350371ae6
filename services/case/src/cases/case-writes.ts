import type { CaseRow, InternalContext } from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import { assertWritable, resolveScope, scopeConditions, type Scope } from '../scope/scope';
import { addHistory } from './case-history';
import { loadCaseRows } from './case-repository';

/*
 * What every case write shares: the row lock in the caller's scope, the
 * transaction with its history rows, reference names and the domain events.
 * The writes themselves, one module per action: case-edit.ts (verdict and
 * full edit), case-patch.ts (status or assignee, single and bulk) on top of
 * case-status.ts and case-assignment.ts, case-flags.ts.
 */

/** The state of a case a write checks, read under a row lock. */
export interface LockedCase {
  id: number;
  /** For the domain events of a change (design §11). */
  tenant_id: string;
  merchant_id: number;
  status_id: number;
  status_group_id: number;
  status: string;
  status_group: string;
  verdict_id: number;
  verdict: string;
  card_type_id: number;
  card_type: string;
  processor_invoice_id: string | null;
  dispute_amt: number;
  flag_id: number | null;
  is_flagged: boolean;
  assigned_user_id: number | null;
}

export interface WriteResult {
  message: string;
  data: CaseRow[];
}

/**
 * Locks the cases in the caller's scope. A single case out of scope is a 404;
 * in a bulk call the unknown ids are a 400 naming the parameter.
 */
export async function lockCases(
  tx: Queryable,
  scope: Scope,
  ids: readonly number[],
  param: string | null,
): Promise<Map<number, LockedCase>> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'c', params);
  params.push([...new Set(ids)]);
  // Locked alone, then joined: a locking select with joins rechecks a row changed meanwhile against the
  // joined rows it read before (its old status), so a case whose status another writer had just changed
  // went missing ('unknown case id', seen under the crowd bench).
  const { rows } = await tx.query<LockedCase>(
    `with c as (
       select * from cases.cases c where ${conditions.join(' and ')} and c.id = any($${params.length}::bigint[])
       order by c.id for update
     )
     select c.id, c.tenant_id, c.merchant_id, c.status_id, c.status_group_id, st.name as status, sg.name as status_group, c.verdict_id, v.name as verdict,
       c.card_type_id, ct.name as card_type, c.processor_invoice_id, c.dispute_amt, c.flag_id, c.is_flagged, c.assigned_user_id
     from c
     join cases.statuses st on st.id = c.status_id
     join cases.status_groups sg on sg.id = c.status_group_id
     join cases.verdicts v on v.id = c.verdict_id
     join cases.card_types ct on ct.id = c.card_type_id
     order by c.id`,
    params,
  );
  const found = new Map(
    rows.map((r) => [
      Number(r.id),
      {
        ...r,
        id: Number(r.id),
        merchant_id: Number(r.merchant_id),
        flag_id: r.flag_id === null ? null : Number(r.flag_id),
      },
    ]),
  );
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length) {
    if (param === null) throw notFound('Case not found.');
    throw badRequest(`${param}: unknown case id(s) ${missing.join(', ')}.`);
  }
  return found;
}

/** The name (code for a currency) of a reference row; an unknown id is a 400 naming the parameter. */
export async function nameOf(
  tx: Queryable,
  table: 'verdicts' | 'statuses' | 'currencies',
  id: number,
  param: string,
): Promise<string> {
  const column = table === 'currencies' ? 'code' : 'name';
  const { rows } = await tx.query<{ name: string }>(
    `select ${column} as name from cases.${table} where id = $1`,
    [id],
  );
  if (!rows[0]) throw badRequest(`${param}: unknown id ${id}.`);
  return rows[0].name;
}

/** Runs a case write: refuses read-only callers, resolves the scope, commits with its history rows. */
export async function write(
  db: Db,
  ctx: InternalContext,
  fn: (
    tx: Queryable,
    scope: Scope,
  ) => Promise<{ ids: number[]; history: Array<{ caseId: number; action: string }>; message: string }>,
): Promise<WriteResult> {
  assertWritable(ctx);
  return db.transaction(async (tx) => {
    const scope = await resolveScope(tx, ctx);
    const { ids, history, message } = await fn(tx, scope);
    await addHistory(tx, ctx, history);
    return { message, data: await loadCaseRows(tx, ids) };
  });
}

/** CASE_STATUS_CHANGED (with the verdict when the change sets one). */
export function statusEvent(c: LockedCase, status: string, verdict?: string) {
  const data = { case_id: c.id, previous_status: c.status, status, ...(verdict ? { verdict } : {}) };
  return { type: 'CASE_STATUS_CHANGED' as const, merchant_id: c.merchant_id, data };
}

/** CASE_VERDICT_CHANGED. */
export function verdictEvent(c: LockedCase, verdict: string) {
  const data = { case_id: c.id, previous_verdict: c.verdict, verdict };
  return { type: 'CASE_VERDICT_CHANGED' as const, merchant_id: c.merchant_id, data };
}
